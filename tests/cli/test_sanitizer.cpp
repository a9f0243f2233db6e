#include <doctest/doctest.h>

#include <sstream>

#include "commands/commands.hpp"
#include "model/build_config.hpp"
#include "report/check_json.hpp"
#include "report_fixture.hpp"
#include "run/sanitize_check.hpp"
#include "run/sanitizer_output.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;

namespace {

// compute-sanitizer's output as it prints it (CUDA 12/13), for a kernel that writes past its row on many
// threads: the same report from several threads, a host backtrace, and the summary.
const char* const kMemcheck = R"(========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at row_softmax_kernel(const float *, float *, int, int)+0x1b0 in /home/me/puzzles/01_row_softmax.cu:42
=========     by thread (31,0,0) in block (2,0,0)
=========     Address 0x7f3a2c000a00 is out of bounds
=========     and is 4 bytes after the nearest allocation at 0x7f3a2c000000 of size 2560 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: [0x2f2b3a] in libcuda.so.1
=========         Host Frame:row_softmax(const float*, float*, int, int) [0x9b3d] in /tmp/child
=========
========= Invalid __global__ write of size 4 bytes
=========     at row_softmax_kernel(const float *, float *, int, int)+0x1b0 in /home/me/puzzles/01_row_softmax.cu:42
=========     by thread (63,0,0) in block (2,0,0)
=========     Address 0x7f3a2c000a80 is out of bounds
=========
hello from the learner's printf
========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to cudaDeviceSynchronize.
=========     Saved host backtrace up to driver entry point at error
=========         Host Frame: [0x2f2b3a] in libcuda.so.1
=========
========= ERROR SUMMARY: 3 errors
)";

const char* const kRacecheck = R"(========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at tiled_softmax_kernel(const float *, float *, int, int)+0x2a0 in /home/me/puzzles/02_tiled_softmax.cu:30
=========     and Read access at tiled_softmax_kernel(const float *, float *, int, int)+0x300 in /home/me/puzzles/02_tiled_softmax.cu:35 [128 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
)";

const char* const kSynccheck = R"(========= COMPUTE-SANITIZER
========= Barrier error detected. Divergent thread(s) in warp
=========     at row_softmax_kernel(const float *, float *, int, int)+0x110 in /home/me/puzzles/01_row_softmax.cu:20
=========     by thread (0,0,0) in block (0,0,0)
=========
========= ERROR SUMMARY: 1 error
)";

const char* const kClean = R"(========= COMPUTE-SANITIZER
========= ERROR SUMMARY: 0 errors
)";

}  // namespace

TEST_CASE("memcheck: reports of the same access are one finding with a count; API errors are findings") {
  const SanitizerOutput out = parse_sanitizer_output("memcheck", kMemcheck);
  CHECK(out.errors == 3);
  REQUIRE(out.findings.size() == 2);
  const SanitizerFinding& write = out.findings[0];
  CHECK(write.tool == "memcheck");
  CHECK(write.kind == "invalid_global_write");
  CHECK(write.message == "Invalid __global__ write of size 4 bytes");
  CHECK(write.kernel == "row_softmax_kernel(const float *, float *, int, int)");
  CHECK(write.file == "/home/me/puzzles/01_row_softmax.cu");
  CHECK(write.line == 42);
  CHECK(write.thread == "(31,0,0)");  // the first report's
  CHECK(write.block == "(2,0,0)");
  CHECK(write.count == 2);
  REQUIRE(write.details.size() == 2);  // the address lines; host frames are left out
  CHECK(write.details[0] == "Address 0x7f3a2c000a00 is out of bounds");
  const SanitizerFinding& api = out.findings[1];
  CHECK(api.kind == "cuda_api_error");
  CHECK(api.file.empty());
  CHECK(api.details.empty());
}

TEST_CASE("racecheck: both accesses, the first as the place; the hazard summary gives the errors") {
  const SanitizerOutput out = parse_sanitizer_output("racecheck", kRacecheck);
  CHECK(out.errors == 1);
  REQUIRE(out.findings.size() == 1);
  const SanitizerFinding& race = out.findings[0];
  CHECK(race.kind == "race");
  CHECK(race.message == "Race reported between Write access");
  CHECK(race.file == "/home/me/puzzles/02_tiled_softmax.cu");
  CHECK(race.line == 30);
  REQUIRE(race.details.size() == 1);
  CHECK(race.details[0].find(":35 [128 hazards]") != std::string::npos);
}

TEST_CASE("synccheck, a clean run, and a run that printed no summary") {
  const SanitizerOutput sync = parse_sanitizer_output("synccheck", kSynccheck);
  REQUIRE(sync.findings.size() == 1);
  CHECK(sync.findings[0].kind == "barrier_divergence");
  CHECK(sync.findings[0].line == 20);
  CHECK(sync.findings[0].thread == "(0,0,0)");

  const SanitizerOutput clean = parse_sanitizer_output("memcheck", kClean);
  CHECK(clean.errors == 0);
  CHECK(clean.findings.empty());

  CHECK_FALSE(parse_sanitizer_output("memcheck", "the program's own output\n").errors);
}

TEST_CASE("errors count the findings' repeats, or the summary where it says more") {
  std::vector<SanitizerRun> runs = {
      {.tool = "memcheck", .output = parse_sanitizer_output("memcheck", kMemcheck)},
      {.tool = "racecheck", .output = parse_sanitizer_output("racecheck", kRacecheck)}};
  CHECK(sanitizer_errors(runs) == 4);
  runs[1].output.findings.clear();  // a summary with errors but no parsed finding still counts
  CHECK(sanitizer_errors(runs) == 4);
  const nlohmann::json j = sanitizer_json(runs);
  REQUIRE(j.size() == 2);
  CHECK(j[0]["tool"] == "memcheck");
  CHECK(j[0]["errors"] == 3);
  CHECK(j[0]["findings"][0]["kind"] == "invalid_global_write");
  CHECK(j[0]["findings"][0]["count"] == 2);
  CHECK(j[0]["findings"][0]["line"] == 42);
  std::ostringstream out;
  print_sanitizer_runs(runs, Style(false), out);
  CHECK(out.str().find("memcheck: 3 errors") != std::string::npos);
  CHECK(out.str().find(
            "at /home/me/puzzles/01_row_softmax.cu:42, thread (31,0,0) of block (2,0,0) (2 times)") !=
        std::string::npos);
}

TEST_CASE("sanitizer errors fail a passing check: its status (the JSON report's) and its exit code") {
  const std::vector<SanitizerRun> errors = {
      {.tool = "memcheck", .output = parse_sanitizer_output("memcheck", kMemcheck)}};
  CheckReport report = testing::fixture_report();
  report.puzzles.front().status = PuzzleStatus::passed;
  report.exit_code = kExitPassed;
  apply_sanitizer_verdict(errors, report);
  CHECK(report.exit_code == kExitKernelFailed);
  CHECK(report.puzzles.front().status == PuzzleStatus::failed);
  CHECK(report_to_json(report, "test")["puzzles"][0]["status"] == "failed");

  CheckReport unfinished = testing::fixture_report();
  unfinished.puzzles.front().status = PuzzleStatus::passed;
  unfinished.exit_code = kExitPassed;
  apply_sanitizer_verdict({{.tool = "memcheck", .problem = "timed out"}}, unfinished);
  CHECK(unfinished.exit_code == kExitEnvironment);  // checked nothing: not a pass, not the kernel's fault

  CheckReport crashed = testing::fixture_report();
  crashed.puzzles.front().status = PuzzleStatus::crashed;
  crashed.exit_code = kExitKernelFailed;
  apply_sanitizer_verdict(errors, crashed);
  CHECK(crashed.puzzles.front().status == PuzzleStatus::crashed);  // its own verdict stands
}

TEST_CASE("a racecheck warning is shown but fails nothing; two processes' summaries add up") {
  const std::string warning = R"(========= COMPUTE-SANITIZER
========= Warning: Race reported between Read access at k(float *)+0x10 in /home/me/a.cu:7
=========     and Write access at k(float *)+0x20 in /home/me/a.cu:9 [4 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)
)";
  const SanitizerOutput out = parse_sanitizer_output("racecheck", warning);
  REQUIRE(out.findings.size() == 1);
  CHECK(out.findings[0].severity == "warning");
  CHECK(out.findings[0].message == "Race reported between Read access");
  const std::vector<SanitizerRun> runs = {{.tool = "racecheck", .output = out}};
  CHECK(sanitizer_errors(runs) == 0);
  CHECK(sanitizer_json(runs)[0]["findings"][0]["severity"] == "warning");
  // A fault killed the first child's context, so a second process ran the remaining cases.
  const SanitizerOutput both = parse_sanitizer_output("memcheck", std::string(kMemcheck) + kSynccheck);
  CHECK(both.errors == 4);
}

TEST_CASE("the sanitizer's own failure is a problem of the run, not the learner's finding") {
  const SanitizerOutput out = parse_sanitizer_output(
      "memcheck",
      "========= COMPUTE-SANITIZER\n========= Error: Target application terminated before first "
      "instrumented API call\n");
  CHECK(out.findings.empty());
  CHECK_FALSE(out.errors);
  REQUIRE(out.tool_errors.size() == 1);
  std::ostringstream text;
  print_sanitizer_runs({{.tool = "memcheck", .output = out, .problem = "compute-sanitizer failed"}},
                       Style(false), text);
  CHECK(text.str().find("memcheck: not checked") != std::string::npos);
}

TEST_CASE("--sanitize without a GPU says it needs one, before running anything, and still writes --json") {
  BuildConfig config = build_config();
  config.have_cuda = false;  // as on a machine without CUDA: the probe is not even tried
  CHECK_THROWS_WITH_AS(require_sanitizer(config, BackendRequest::automatic),
                       doctest::Contains("--sanitize needs an NVIDIA GPU"), EnvironmentError);
  CHECK_THROWS_WITH_AS(require_sanitizer(config, BackendRequest::sim), doctest::Contains("--backend sim"),
                       UsageError);

  TempDir dir("cli-sanitize-");
  Command command{.kind = CommandKind::check, .text = "puzzle check 1 --sanitize"};
  command.check = {.puzzle = "1", .solution = true, .json = dir.path() / "r.json", .sanitize = true};
  std::ostringstream out, err;
  CHECK(check_command(command, config, Style(false), out, err) == kExitEnvironment);
  CHECK(err.str().find("needs an NVIDIA GPU") != std::string::npos);
  CHECK(out.str().find("build:") == std::string::npos);  // nothing was built or run
  const auto report = nlohmann::json::parse(*read_text(dir.path() / "r.json"));
  CHECK(report["exit_code"] == 3);
  CHECK(report["error"].get<std::string>().find("needs an NVIDIA GPU") != std::string::npos);
}
