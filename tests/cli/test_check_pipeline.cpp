#include <doctest/doctest.h>

#include "model/build_config.hpp"
#include "pipelines/check_pipeline.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;
using puzzle::CaseStatus;

namespace {

struct PipelineFixture {
  TempDir dir{"cli-check-test-"};
  BuildConfig config = [this] {
    BuildConfig c = build_config();
    c.build_dir = dir.path();
    return c;
  }();

  CheckReport check(CheckOptions options) {
    options.backend = BackendRequest::sim;
    options.seed = 3;
    return run_check(options, "puzzle check", config);
  }
};

}  // namespace

// Puzzle 7: every case of its solution runs in about a second on the simulator, puzzle 1's in ten (each
// puzzle's solution has its CTest kernel test, kernel.sim.pNN.solution, through the `puzzle` command).
TEST_CASE("the reference solution passes on the simulator") {
  PipelineFixture f;
  const CheckReport r = f.check({.puzzle = "7", .solution = true});
  INFO(r.error);
  REQUIRE(r.error.empty());
  REQUIRE(r.puzzles.size() == 1);
  const PuzzleReport& p = r.puzzles.front();
  INFO(p.build.log);
  CHECK(p.status == PuzzleStatus::passed);
  CHECK(r.exit_code == 0);
  CHECK(p.score == p.max_score);
  CHECK(p.max_score > 0);
  CHECK(r.device.name == "CPU simulator");
  for (const auto& c : p.cases) {
    CAPTURE(c.result.name);
    CHECK((c.result.status == CaseStatus::passed || c.needs_gpu));
  }
}

TEST_CASE("--case runs only the cases named; an unknown case is a usage error") {
  PipelineFixture f;
  const std::string name = lookup_puzzle("1").cases.front().name;
  const CheckReport r = f.check({.puzzle = "1", .solution = true, .cases = {name}});
  REQUIRE(r.puzzles.size() == 1);
  REQUIRE(r.puzzles.front().cases.size() == 1);
  CHECK(r.puzzles.front().cases.front().result.name == name);

  const CheckReport bad = f.check({.puzzle = "1", .cases = {"no_such_case"}});
  CHECK(bad.exit_code == 2);
  CHECK(bad.error.find(name) != std::string::npos);  // lists the cases there are
}

TEST_CASE("an unknown puzzle or an unreadable file is a usage error") {
  PipelineFixture f;
  const CheckReport unknown = f.check({.puzzle = "999"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.error.find("no puzzle") != std::string::npos);
  const CheckReport missing = f.check({.puzzle = "1", .file = f.dir.path() / "missing.cu"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.error.find("cannot read") != std::string::npos);
}

TEST_CASE("a file that does not compile: compile_error, exit code 2") {
  PipelineFixture f;
  const auto file = f.dir.path() / "broken.cu";
  write_atomically(file, "this is not C++\n");
  const CheckReport r = f.check({.puzzle = "1", .file = file});
  REQUIRE(r.puzzles.size() == 1);
  CHECK(r.puzzles.front().status == PuzzleStatus::compile_error);
  CHECK(r.exit_code == 2);
  CHECK(r.puzzles.front().cases.empty());
}

namespace {

// Puzzle 1's launcher with `body` as its whole body.
std::string launcher(const std::string& body) {
  return lookup_puzzle("1").signature + " {\n" + body + "\n}\n";
}

std::vector<std::string> first_sim_cases(int n) {
  std::vector<std::string> names;
  for (const auto& c : lookup_puzzle("1").cases) {
    if (c.sim && static_cast<int>(names.size()) < n) names.push_back(c.name);
  }
  return names;
}

}  // namespace

TEST_CASE("a launcher that does nothing fails every case, with exit code 1") {
  PipelineFixture f;
  const auto file = f.dir.path() / "lazy.cu";
  write_atomically(file, launcher(""));
  const CheckReport r = f.check({.puzzle = "1", .file = file, .cases = first_sim_cases(2)});
  REQUIRE(r.puzzles.size() == 1);
  const PuzzleReport& p = r.puzzles.front();
  INFO(p.build.log);
  CHECK(p.status == PuzzleStatus::failed);
  CHECK(r.exit_code == 1);
  CHECK(p.score == 0);
  for (const auto& c : p.cases) {
    CHECK(c.result.status == CaseStatus::failed);
    REQUIRE(!c.result.checks.empty());
    CHECK(c.result.checks.front().unwritten == c.result.checks.front().elements);
  }
}

TEST_CASE("a launcher that crashes: every case crashed, each in a fresh child") {
  PipelineFixture f;
  const auto file = f.dir.path() / "crash.cu";
  write_atomically(file, launcher("  *(volatile int*)nullptr = 1;"));
  const CheckReport r = f.check({.puzzle = "1", .file = file, .cases = first_sim_cases(2)});
  REQUIRE(r.puzzles.size() == 1);
  const PuzzleReport& p = r.puzzles.front();
  CHECK(p.status == PuzzleStatus::crashed);
  CHECK(r.exit_code == 1);
  REQUIRE(p.cases.size() == 2);
  for (const auto& c : p.cases) CHECK(c.result.status == CaseStatus::crashed);
}

TEST_CASE("a kernel that never ends times out; the cases after it are skipped") {
  PipelineFixture f;
  const auto file = f.dir.path() / "hang.cu";
  write_atomically(
      file, "__global__ void spin(volatile int* flag) { while (*flag == 0) {} }\n" +
                launcher("  int* flag; cudaMalloc(&flag, sizeof(int)); cudaMemset(flag, 0, sizeof(int));\n"
                         "  spin<<<1, 1>>>(flag); cudaDeviceSynchronize();"));
  CheckOptions options{.puzzle = "1", .file = file, .timeout_s = 1.0, .cases = first_sim_cases(2)};
  const CheckReport r = f.check(options);
  REQUIRE(r.puzzles.size() == 1);
  const PuzzleReport& p = r.puzzles.front();
  INFO(p.build.log);
  INFO(p.program_stderr);
  CHECK(p.status == PuzzleStatus::timeout);
  CHECK(r.exit_code == 1);
  REQUIRE(p.cases.size() == 2);
  CHECK(p.cases[0].result.status == CaseStatus::timeout);
  CHECK(p.cases[1].result.status == CaseStatus::skipped);
  CHECK(p.max_score == 2);  // the skipped case still counts
}
