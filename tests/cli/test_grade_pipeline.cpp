#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>

#include "commands/commands.hpp"
#include "model/build_config.hpp"
#include "pipelines/grade_pipeline.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;
using puzzle::CaseStatus;

namespace {

struct GradeFixture {
  TempDir dir{"cli-grade-test-"};
  std::filesystem::path submission = dir.path() / "submission";
  BuildConfig config = [this] {
    BuildConfig c = build_config();
    c.build_dir = dir.path() / "build";
    return c;
  }();

  void submit(const std::string& relative, const std::string& text) {
    write_atomically(submission / relative, text);
  }

  void submit_solution(int id, const std::string& relative_dir = "") {
    const puzzle::PuzzleSpec& spec = lookup_puzzle(std::to_string(id));
    submit(relative_dir + spec.file, *read_text(solution_ladder(spec, config.source_dir).front()));
  }

  GradeReport grade(GradeOptions options, const GradeObserver& observer = {}) {
    std::filesystem::create_directories(submission);
    options.backend = BackendRequest::sim;
    options.submission = submission;
    return run_grade(options, "puzzle grade", config, {}, observer);
  }
};

int counted_points(const puzzle::PuzzleSpec& spec) {
  int points = 0;
  for (const auto& c : spec.cases) points += c.sim ? c.points : 0;
  return points;
}

// Puzzle 1's launcher with `body` as its whole body.
std::string launcher(const std::string& body) {
  return lookup_puzzle("1").signature + " {\n" + body + "\n}\n";
}

const std::string kHang =
    "__global__ void spin(volatile int* flag) { while (*flag == 0) {} }\n" +
    launcher(
        "  int* flag; cudaMalloc(&flag, sizeof(int)); cudaMemset(flag, 0, sizeof(int));\n"
        "  spin<<<1, 1>>>(flag); cudaDeviceSynchronize();");

}  // namespace

// Puzzles 7-9: puzzle 7's solution runs every case in about a second on the simulator (puzzle 1's in ten).
TEST_CASE("grade: each puzzle on its own; a compile error or a missing file costs only its puzzle") {
  GradeFixture f;
  f.submit_solution(7, "my work/puzzles/");
  f.submit("08_swizzled_gemm.cu", "this is not C++\n");
  std::vector<size_t> done;
  const GradeReport r =
      f.grade({.puzzles = "7-9"}, {.puzzle_done = [&](const GradeReport&, size_t i) { done.push_back(i); }});
  INFO(r.run.error);
  REQUIRE(r.run.error.empty());
  CHECK(r.complete);
  CHECK(done == std::vector<size_t>{0, 1, 2});
  REQUIRE(r.puzzles.size() == 3);
  CHECK(r.run.seed == kDefaultGradeSeed);

  const GradedPuzzle& solved = r.puzzles[0];
  CHECK(solved.state == GradeState::graded);
  CHECK(solved.status() == "passed");
  CHECK(solved.report.file.string().find("my work/puzzles/") != std::string::npos);
  CHECK(solved.score() == counted_points(*solved.report.spec));
  CHECK(solved.seconds > 0);

  const GradedPuzzle& broken = r.puzzles[1];
  CHECK(broken.status() == "compile_error");
  CHECK(broken.score() == 0);
  CHECK(broken.max_score() == counted_points(*broken.report.spec));  // the same maximum whatever happened
  for (const auto& c : broken.report.cases) CHECK(c.result.status == CaseStatus::skipped);

  const GradedPuzzle& missing = r.puzzles[2];
  CHECK(missing.status() == "missing");
  CHECK(missing.reason.find("09_flash_forward_bf16.cu") != std::string::npos);
  CHECK(missing.max_score() == counted_points(*missing.report.spec));

  CHECK(r.score() == solved.score());
  CHECK(r.max_score() == solved.max_score() + broken.max_score() + missing.max_score());
  CHECK(r.seconds >= solved.seconds + broken.seconds);
}

TEST_CASE("grade: the time budget caps a hang, and the puzzles after it are not run") {
  GradeFixture f;
  // The budget is tighter than a CUDA front end's compile beside g++'s can be on a loaded machine: it is to
  // cap the run.
  f.config.cuda_front_end_nvcc.clear();
  f.config.cuda_front_end_clang.clear();
  f.submit("01_row_softmax.cu", kHang);
  f.submit_solution(2);
  const GradeReport r =
      f.grade({.puzzles = "1,2", .time_budget_s = 3.0});  // under the 3 s CPU floor of a case
  REQUIRE(r.run.error.empty());
  REQUIRE(r.puzzles.size() == 2);
  const GradedPuzzle& hung = r.puzzles[0];
  INFO(hung.report.build.log);
  CHECK(hung.status() == "timeout");
  CHECK(hung.seconds < 10);  // not the simulator's 60 s per case
  const auto& first = hung.report.cases.front().result;
  CHECK(first.message.find("time budget") != std::string::npos);
  REQUIRE(!first.diagnoses.empty());
  CHECK(first.diagnoses.front().id == "time_budget");
  CHECK(r.puzzles[1].state == GradeState::out_of_time);
  CHECK(r.puzzles[1].status() == "not_run");
  CHECK(r.puzzles[1].max_score() == counted_points(*r.puzzles[1].report.spec));
  CHECK(r.score() == 0);
}

TEST_CASE("grade: the time budget stops a puzzle of many slow cases, not only a hang") {
  GradeFixture f;
  f.submit("01_row_softmax.cu", "#include <unistd.h>\n" + launcher("  usleep(1000000);"));
  const auto started = std::chrono::steady_clock::now();
  const GradeReport r = f.grade({.puzzles = "1", .timeout_s = 30.0, .time_budget_s = 8.0});
  // Each case takes 1 s, far below the case timeout: only the budget can stop its 15 cases.
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(11));
  REQUIRE(r.puzzles.size() == 1);
  const GradedPuzzle& slow = r.puzzles[0];
  INFO(slow.report.build.log);
  REQUIRE(slow.status() == "timeout");
  const auto stopped = std::find_if(slow.report.cases.begin(), slow.report.cases.end(),
                                    [](const auto& c) { return c.result.status == CaseStatus::timeout; });
  REQUIRE(stopped != slow.report.cases.end());
  CHECK(stopped->result.message == "stopped: the grading time budget (8 s) ran out during this case");
  REQUIRE(stopped + 1 != slow.report.cases.end());
  CHECK((stopped + 1)->result.message == "not run: the grading time budget (8 s) ran out");
  CHECK(slow.max_score() == counted_points(*slow.report.spec));
}

TEST_CASE("grade: a secret seed is used when there is no --seed") {
  GradeFixture f;
  f.submit("01_row_softmax.cu", launcher(""));
  std::filesystem::create_directories(f.submission);
  const GradeReport r = run_grade(
      {.backend = BackendRequest::sim, .submission = f.submission, .puzzles = "1", .time_budget_s = 0.5},
      "puzzle grade", f.config, {.variable = "s3cret"});
  CHECK(r.seed_source == SeedSource::secret);
  CHECK(r.run.seed == seed_from_secret("s3cret"));
}

TEST_CASE("grade: errors that stop grading are in the report, with the puzzles not graded") {
  GradeFixture f;
  const GradeReport unknown = f.grade({.puzzles = "1,99"});
  CHECK(unknown.run.exit_code == kExitUsage);
  CHECK(unknown.run.error.find("99") != std::string::npos);
  CHECK(unknown.puzzles.empty());

  f.submit_solution(1);
  f.config.cxx = "/nonexistent/g++";
  const GradeReport no_compiler = f.grade({.puzzles = "1,2"});
  CHECK(no_compiler.run.exit_code == kExitEnvironment);
  CHECK(no_compiler.run.error.find("C++ compiler") != std::string::npos);
  REQUIRE(no_compiler.puzzles.size() == 2);
  CHECK(no_compiler.puzzles[0].status() == "not_run");
  CHECK(no_compiler.puzzles[1].status() == "not_run");
  CHECK(no_compiler.max_score() > 0);
}

TEST_CASE("grade command: reports written, exit 0 whatever the scores; an error goes into them, exit 2") {
  GradeFixture f;
  f.submit_solution(7);  // the quickest solution to grade
  Command command{.kind = CommandKind::grade, .text = "puzzle grade"};
  command.grade = {.backend = BackendRequest::sim,
                   .submission = f.submission,
                   .puzzles = "7,8",
                   .json = f.dir.path() / "report.json",
                   .gradescope = f.dir.path() / "results.json",
                   .junit = f.dir.path() / "junit.xml"};
  std::ostringstream out, err;
  CHECK(grade_command(command, f.config, Style(false), out, err) == 0);
  INFO(out.str());
  INFO(err.str());
  const auto report = nlohmann::json::parse(*read_text(f.dir.path() / "report.json"));
  const auto results = nlohmann::json::parse(*read_text(f.dir.path() / "results.json"));
  CHECK(report["complete"] == true);
  CHECK(report["exit_code"] == 0);
  CHECK(report["puzzles"][1]["status"] == "missing");
  CHECK(results["score"] == report["score"]);
  CHECK(results["score"].get<double>() == counted_points(lookup_puzzle("7")));
  CHECK(read_text(f.dir.path() / "junit.xml")->find("<testsuites") != std::string::npos);
  CHECK(out.str().find("total: " + std::to_string(counted_points(lookup_puzzle("7"))) + "/") !=
        std::string::npos);

  command.grade.puzzles = "7,99";
  std::ostringstream out2, err2;
  CHECK(grade_command(command, f.config, Style(false), out2, err2) == kExitUsage);
  CHECK(err2.str().find("99") != std::string::npos);
  const auto stopped = nlohmann::json::parse(*read_text(f.dir.path() / "results.json"));
  CHECK(stopped["output"].get<std::string>().find("Grading stopped") != std::string::npos);

  command.grade.json = command.grade.gradescope = command.grade.junit = std::nullopt;
  std::ostringstream out3, err3;
  CHECK(grade_command(command, f.config, Style(false), out3, err3) ==
        kExitUsage);  // nothing carries the error
}

TEST_CASE("grade command: the secret seed is read, then hidden from the learner's code") {
  GradeFixture f;
  setenv(kSecretSeedVariable, "classified", 1);
  Command command{.kind = CommandKind::grade, .text = "puzzle grade"};
  command.grade = {.backend = BackendRequest::sim,
                   .submission = f.submission,
                   .puzzles = "1",
                   .json = f.dir.path() / "report.json",
                   .time_budget_s = 0.5};  // nothing is run
  std::filesystem::create_directories(f.submission);
  std::ostringstream out, err;
  CHECK(grade_command(command, f.config, Style(false), out, err) == 0);
  CHECK(std::getenv(kSecretSeedVariable) == nullptr);
  const auto report = nlohmann::json::parse(*read_text(f.dir.path() / "report.json"));
  CHECK(report["seed_source"] == "secret");
  CHECK(report["seed"] == seed_from_secret("classified"));
  CHECK(out.str().find("classified") == std::string::npos);
  CHECK(out.str().find(std::to_string(seed_from_secret("classified"))) == std::string::npos);
  CHECK(report["puzzles"][0]["status"] == "not_run");
}

namespace {

// Puzzle 0's launcher spinning forever on the device.
const std::string kWarmupHang =
    "__global__ void spin(volatile int* flag) { while (*flag == 0) {} }\n" + lookup_puzzle("0").signature +
    " {\n  int* flag; cudaMalloc(&flag, sizeof(int)); cudaMemset(flag, 0, sizeof(int));\n"
    "  spin<<<1, 1>>>(flag); cudaDeviceSynchronize();\n}\n";

size_t lines_of(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("grade --class: a class of three (right, compile error, hang) into reports and a gradebook") {
  GradeFixture f;
  const auto klass = f.dir.path() / "class";
  const puzzle::PuzzleSpec& warmup = lookup_puzzle("0");
  write_atomically(klass / "alice" / warmup.file,
                   *read_text(solution_ladder(warmup, f.config.source_dir).front()));
  write_atomically(klass / "bob" / "00_map_and_sum (1).cu", "this is not C++\n");
  write_atomically(klass / "carol" / warmup.file, kWarmupHang);
  Command command{.kind = CommandKind::grade, .text = "puzzle grade --class class"};
  command.grade = {.backend = BackendRequest::sim,
                   .weights = "0=10",
                   .class_dir = klass,
                   .out = f.dir.path() / "grades",
                   .timeout_s = 3.0};
  std::ostringstream out, err;
  CHECK(grade_command(command, f.config, Style(false), out, err) == kExitPassed);
  INFO(out.str());
  INFO(err.str());
  CHECK(out.str().find("[####################] 3/3") != std::string::npos);
  const std::string book = read_text(f.dir.path() / "grades" / "gradebook.csv").value_or("");
  CHECK(book.starts_with("student,0 Warm-up: a map and a block sum (max 10),total,max_points,notes\n"));
  CHECK(book.find("\nalice,10,10,10,\n") != std::string::npos);
  CHECK(book.find("\nbob,0,0,10,puzzle 0: graded 00_map_and_sum (1).cu as 00_map_and_sum.cu\n") !=
        std::string::npos);
  CHECK(book.find("\ncarol,0,0,10,") != std::string::npos);
  const auto report = [&](const std::string& student) {
    return nlohmann::json::parse(
        read_text(f.dir.path() / "grades" / student / "report.json").value_or("null"));
  };
  CHECK(report("alice")["puzzles"][0]["status"] == "passed");
  CHECK(report("bob")["puzzles"][0]["status"] == "compile_error");
  CHECK(report("carol")["puzzles"][0]["status"] == "timeout");
  for (const char* student : {"alice", "bob", "carol"}) {
    CHECK(std::filesystem::exists(f.dir.path() / "grades" / student / "results.json"));
    CHECK(read_text(f.dir.path() / "grades" / student / "summary.txt").value_or("").find("total:") !=
          std::string::npos);
  }

  // A typo in the folder: one line, exit 2, nothing graded.
  command.grade.class_dir = f.dir.path() / "clas";
  std::ostringstream out2, err2;
  CHECK(grade_command(command, f.config, Style(false), out2, err2) == kExitUsage);
  CHECK(lines_of(err2.str()) == 1);
  CHECK(err2.str().find("clas") != std::string::npos);
  // A class in which no folder has a puzzle file: nothing to grade.
  write_atomically(f.dir.path() / "empty" / "dave" / "notes.txt", "nothing\n");
  command.grade.class_dir = f.dir.path() / "empty";
  std::ostringstream out3, err3;
  CHECK(grade_command(command, f.config, Style(false), out3, err3) == kExitUsage);
  CHECK(err3.str().find("nothing to grade") != std::string::npos);
}

TEST_CASE("grade: a submission with no puzzle file exits 2 with one line, and its reports say why") {
  GradeFixture f;
  f.submit("softmax.cu", "// a learner's own name for it\n");
  Command command{.kind = CommandKind::grade, .text = "puzzle grade"};
  command.grade = {.backend = BackendRequest::sim,
                   .submission = f.submission,
                   .puzzles = "1,2",
                   .json = f.dir.path() / "report.json"};
  std::ostringstream out, err;
  CHECK(grade_command(command, f.config, Style(false), out, err) == kExitUsage);
  CHECK(lines_of(err.str()) == 1);
  CHECK(err.str().find("nothing to grade") != std::string::npos);
  CHECK(err.str().find("softmax.cu") != std::string::npos);  // its .cu files, named
  const auto report = nlohmann::json::parse(*read_text(f.dir.path() / "report.json"));
  CHECK(report["error"].get<std::string>().find("nothing to grade") != std::string::npos);
  CHECK(report["exit_code"] == kExitUsage);
}

TEST_CASE("grade: the simulator estimates speed only when speed earns points (--perf-points)") {
  GradeFixture f;
  f.submit_solution(7);
  const auto estimated = [](const GradeReport& r) {
    int n = 0;
    for (const auto& c : r.puzzles.at(0).report.cases) n += c.estimate.has_value();
    return n;
  };
  const GradeReport correctness = f.grade({.puzzles = "7"});
  REQUIRE(correctness.puzzles.at(0).report.status == PuzzleStatus::passed);
  CHECK(estimated(correctness) == 0);
  CHECK_FALSE(std::filesystem::exists(f.config.build_dir / "cache" / "estimates"));

  const GradeReport with_speed = f.grade({.puzzles = "7", .perf_points = 5});
  REQUIRE(with_speed.puzzles.at(0).report.status == PuzzleStatus::passed);
  CHECK(estimated(with_speed) > 0);
}
