// The simulator child end to end: job.json in, progress.jsonl and output files out, judged by
// judge_case as the CLI would.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "protocol.hpp"
#include "registry.hpp"
#include "verdict.hpp"

namespace fs = std::filesystem;
using namespace puzzle;

namespace {

struct ChildRun {
  fs::path dir;
  int exit_code = -1;
  std::string out, err;
  std::vector<nlohmann::json> lines;

  // `prepare` writes what the parent would have written beside job.json (the inputs it drew).
  ChildRun(const char* learner_code, const protocol::Job& job,
           const std::function<void(const fs::path&)>& prepare = {}) {
    static int runs = 0;
    dir = fs::temp_directory_path() /
          ("child_sim_test_" + std::to_string(::getpid()) + "_" + std::to_string(runs++));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(protocol::job_path(dir)) << nlohmann::json(job).dump();
    if (prepare) prepare(dir);
    std::ofstream(dir / "key") << protocol::SessionKey::random().hex()
                               << "\n";  // as the parent hands it over
    const std::string command = std::string(CHILD_RUNNER) + " " + dir.string() + " " + learner_code + " <" +
                                (dir / "key").string() + " >" + (dir / "out").string() + " 2>" +
                                (dir / "err").string();
    const int status = std::system(command.c_str());
    exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    out = read(dir / "out");
    err = read(dir / "err");
    lines = protocol::read_lines(protocol::progress_path(dir));
  }
  ~ChildRun() { fs::remove_all(dir); }

  static std::string read(const fs::path& file) {
    std::stringstream text;
    text << std::ifstream(file).rdbuf();
    return text.str();
  }

  // The done record of a case, judged like the CLI does.
  CaseResult judge(const PuzzleSpec& p, const protocol::Job& job, int index) const {
    for (const auto& line : lines) {
      if (line["event"] != "done" || line["case"] != index) continue;
      const auto record = line.get<protocol::CaseRecord>();
      std::vector<std::vector<float>> outputs;
      for (size_t k = 0; k < p.outputs.size(); ++k) {
        outputs.push_back(protocol::read_floats(protocol::output_path(dir, index, static_cast<int>(k))));
      }
      return judge_case(p, p.cases[index], job.seed, {outputs.begin(), outputs.end()}, record);
    }
    FAIL("no done record for case ", index);
    return {};
  }
};

int case_index(const PuzzleSpec& p, const std::string& name) {
  for (size_t i = 0; i < p.cases.size(); ++i) {
    if (p.cases[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

TEST_CASE("a right kernel passes every simulator case, with a clean report") {
  const PuzzleSpec& p = *find_puzzle(1);
  protocol::Job job{.puzzle = 1, .seed = 42, .cases = {}, .backend = "sim"};
  for (size_t i = 0; i < p.cases.size(); ++i) {
    if (p.cases[i].sim) job.cases.push_back(static_cast<int>(i));
  }
  const ChildRun run(CHILD_RIGHT, job);
  CHECK(run.exit_code == 0);
  CHECK(run.out.empty());
  CHECK(run.err.empty());
  REQUIRE(run.lines.size() == 3 * job.cases.size() + 1);  // start, launch (inputs ready), done; then end
  CHECK(run.lines.back()["event"] == "end");
  for (size_t i = 0; i < job.cases.size(); ++i) {
    CHECK(run.lines[3 * i]["event"] == "start");
    CHECK(run.lines[3 * i + 1]["event"] == "launch");
    CHECK(run.lines[3 * i + 2]["event"] == "done");
  }
  for (int index : job.cases) {
    const CaseResult r = run.judge(p, job, index);
    INFO(r.name, ": ", r.message);
    CHECK(r.status == CaseStatus::passed);
    CHECK(r.record.scratch_bytes == 0);
    CHECK(r.record.scratch_allocated_bytes == 0);
    REQUIRE(r.record.sim.is_object());
    CHECK(r.record.sim["launches"].size() == 1);
    bool x_read = false;
    for (const auto& t : r.record.sim["traffic"]) {
      x_read |= t["label"] == "x" && t["bytes_read"] >= t["size"];
    }
    CHECK(x_read);
  }
}

TEST_CASE("a write past the end fails on the guards and on the simulator's finding") {
  const PuzzleSpec& p = *find_puzzle(1);
  const protocol::Job job{.puzzle = 1, .seed = 7, .cases = {case_index(p, "127x129")}};
  const ChildRun run(CHILD_WRITES_PAST, job);
  CHECK(run.exit_code == 0);
  const CaseResult r = run.judge(p, job, job.cases[0]);
  CHECK(r.status == CaseStatus::failed);
  CHECK(r.checks[0].guard_after == 1);
  CHECK(r.checks[0].mismatches == 0);
  bool out_of_bounds = false, sim_error = false;
  for (const Diagnosis& d : r.diagnoses) {
    out_of_bounds |= d.id == "out_of_bounds_write";
    sim_error |= d.id.starts_with("sim_");
  }
  CHECK(out_of_bounds);
  CHECK(sim_error);
}

TEST_CASE("a refused launch is recorded and the child goes on") {
  const PuzzleSpec& p = *find_puzzle(1);
  const protocol::Job job{.puzzle = 1, .seed = 7, .cases = {case_index(p, "2x32"), case_index(p, "1x17")}};
  const ChildRun run(CHILD_HUGE_BLOCK, job);
  CHECK(run.exit_code == 0);
  for (int index : job.cases) {
    const CaseResult r = run.judge(p, job, index);
    CHECK(r.status == CaseStatus::failed);
    CHECK(r.record.launch_error.starts_with("cudaErrorInvalidValue"));
    CHECK(r.checks[0].unwritten == r.checks[0].elements);
  }
}

TEST_CASE("the child refuses a job it cannot run, on stderr") {
  const protocol::Job gpu_job{.puzzle = 1, .seed = 7, .cases = {0}, .backend = "gpu"};
  const ChildRun wrong_backend(CHILD_RIGHT, gpu_job);
  CHECK(wrong_backend.exit_code == 2);
  CHECK(wrong_backend.err.starts_with("[child] "));
  CHECK(wrong_backend.out.empty());
  CHECK(wrong_backend.lines.empty());

  const protocol::Job no_case{.puzzle = 1, .seed = 7, .cases = {1000}};
  CHECK(ChildRun(CHILD_RIGHT, no_case).exit_code == 2);
}

TEST_CASE("with inputs from the parent, the child runs on the files it finds, not on its own draw") {
  const PuzzleSpec& p = *find_puzzle(1);
  const int index = case_index(p, "2x32");
  const protocol::Job job{
      .puzzle = 1, .seed = 7, .cases = {index}, .backend = "sim", .inputs_from_parent = true};
  // Every row constant: softmax is 1/32 everywhere, which no drawn row gives.
  const std::vector<float> x(2 * 32, 0.5f);
  const ChildRun run(CHILD_RIGHT, job, [&](const fs::path& dir) {
    protocol::write_floats(protocol::input_path(dir, index, 0), x.data(), static_cast<int64_t>(x.size()));
    protocol::write_floats(protocol::inputs_ready_path(dir, index), nullptr, 0);
  });
  CHECK(run.exit_code == 0);
  const std::vector<float> y = protocol::read_floats(protocol::output_path(run.dir, index, 0));
  REQUIRE(y.size() == x.size() + 2 * protocol::kGuardElems);
  for (size_t i = 0; i < x.size(); ++i) CHECK(y[protocol::kGuardElems + i] == doctest::Approx(1.0 / 32));
}

TEST_CASE("a child waiting for the parent's inputs stops when the parent could not draw them") {
  const protocol::Job job{.puzzle = 1, .seed = 7, .cases = {0}, .backend = "sim", .inputs_from_parent = true};
  const ChildRun run(CHILD_RIGHT, job, [](const fs::path& dir) {
    protocol::write_floats(protocol::inputs_failed_path(dir), nullptr, 0);
  });
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("could not prepare the inputs") != std::string::npos);
}

TEST_CASE("inputs of the wrong size are refused, not read past") {
  const protocol::Job job{.puzzle = 1, .seed = 7, .cases = {0}, .backend = "sim", .inputs_from_parent = true};
  const ChildRun run(CHILD_RIGHT, job, [](const fs::path& dir) {
    const float two[] = {1.0f, 2.0f};  // case 0 is 1x1
    protocol::write_floats(protocol::input_path(dir, 0, 0), two, 2);
    protocol::write_floats(protocol::inputs_ready_path(dir, 0), nullptr, 0);
  });
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("not 1 floats") != std::string::npos);
}
