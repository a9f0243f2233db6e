#include <doctest/doctest.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <sstream>

#include "report/check_console.hpp"
#include "report_fixture.hpp"

using namespace puzzle::cli;

namespace {

std::string render(Style style) {
  const CheckReport report = testing::fixture_report();
  std::ostringstream out;
  ConsoleReport console(out, style, false, "/repo");
  console.header(report);
  console.build(report.puzzles.front());
  console.results(report);
  return out.str();
}

// A terminal to test colour detection with, without a real one.
struct PseudoTerminal {
  PseudoTerminal() {
    master = posix_openpt(O_RDWR | O_NOCTTY);
    REQUIRE(master >= 0);
    REQUIRE(grantpt(master) == 0);
    REQUIRE(unlockpt(master) == 0);
    slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    REQUIRE(slave >= 0);
  }
  ~PseudoTerminal() {
    close(slave);
    close(master);
  }
  int master = -1, slave = -1;
};

}  // namespace

TEST_CASE("the plain console report: header, one line per case, the failure in detail, the verdict") {
  const std::string text = render(Style(false));
  CHECK(text.find('\033') == std::string::npos);
  CHECK(text.find("puzzle 1: Row softmax\n") != std::string::npos);
  CHECK(text.find("file:    puzzles/01_row_softmax/01_row_softmax.cu\n") != std::string::npos);
  CHECK(text.find("backend: simulator (no GPU found)\n") != std::string::npos);
  CHECK(text.find("seed:    42 (reproduce with --seed 42)\n") != std::string::npos);
  CHECK(text.find("build:   ok in 1.5 s\n") != std::string::npos);
  CHECK(text.find("  PASS     4x5") != std::string::npos);
  CHECK(text.find("  FAIL     127x129") != std::string::npos);
  CHECK(text.find("  SKIP     4096x4096") != std::string::npos);
  CHECK(text.find("needs a GPU") != std::string::npos);
  // The failed case in detail: counts, the first mismatches as a table, the diagnosis.
  CHECK(text.find("y: 3 of 16383 wrong (1 NaN, 0 inf, 1 never written), 2 out-of-bounds writes") !=
        std::string::npos);
  CHECK(text.find("location") != std::string::npos);
  CHECK(text.find("row 0, col 17") != std::string::npos);
  CHECK(text.find("0.375") != std::string::npos);
  CHECK(text.find("NaN") != std::string::npos);
  CHECK(text.find("why: exp overflowed") != std::string::npos);
  CHECK(text.find("  | hello from the kernel") != std::string::npos);
  CHECK(text.find("FAILED: 1/2 cases passed, score 1/2 (1 more need a GPU)") != std::string::npos);
  CHECK(text.find("`puzzle hint 1`") != std::string::npos);
  CHECK(text.find("puzzles/01_row_softmax/README.md") != std::string::npos);
}

TEST_CASE("colour marks the statuses, which are words either way") {
  const std::string text = render(Style(true));
  CHECK(text.find("\033[32mPASS") != std::string::npos);
  CHECK(text.find("\033[1;31mFAIL") != std::string::npos);
}

TEST_CASE("colour only on a terminal, and never with NO_COLOR") {
  PseudoTerminal tty;
  setenv("TERM", "xterm", 1);
  unsetenv("NO_COLOR");
  CHECK(color_wanted(tty.slave));
  setenv("NO_COLOR", "1", 1);
  CHECK_FALSE(color_wanted(tty.slave));
  unsetenv("NO_COLOR");
  setenv("TERM", "dumb", 1);
  CHECK_FALSE(color_wanted(tty.slave));
  setenv("TERM", "xterm", 1);
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  CHECK_FALSE(color_wanted(pipe_fds[1]));  // piped
  close(pipe_fds[0]);
  close(pipe_fds[1]);
}

namespace {

// The fixture's failed case, renamed, with `diagnoses` as its readings.
CaseReport failed_case(const std::string& name, std::vector<puzzle::Diagnosis> diagnoses) {
  CaseReport c = testing::fixture_report().puzzles.front().cases[1];
  c.result.name = name;
  c.result.diagnoses = std::move(diagnoses);
  return c;
}

std::string render_results(const CheckReport& report, bool verbose = false) {
  std::ostringstream out;
  ConsoleReport(out, Style(false), verbose, "/repo").results(report);
  return out.str();
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a case whose reading the first three lack is explained too, after them") {
  CheckReport report = testing::fixture_report();
  const puzzle::Diagnosis unwritten{"unwritten_elements", "12 of 16383 elements of y were never written"};
  std::vector<CaseReport>& cases = report.puzzles.front().cases;
  cases = {failed_case("a", {unwritten}), failed_case("b", {unwritten}), failed_case("c", {unwritten}),
           failed_case("d", {unwritten}),
           failed_case("e", {unwritten, {"fragment_places", "the wrong elements are the same 64 places"}})};
  const std::string text = render_results(report);
  CAPTURE(text);
  CHECK(text.find("FAIL e (") != std::string::npos);
  CHECK(text.find("why: the wrong elements are the same 64 places") != std::string::npos);
  CHECK(text.find("FAIL d (") == std::string::npos);
  CHECK(text.find("1 more failed case") != std::string::npos);
}

TEST_CASE("one why line, the most specific; --verbose shows every reading") {
  CheckReport report = testing::fixture_report();
  report.puzzles.front().cases = {
      failed_case("a", {{"unwritten_elements", "nothing was written to y"},
                        {"rows_sum_too_large", "wrong rows of y sum to 1.5"},
                        {"missing_rescale", "the running sum was not rescaled when the max grew"},
                        {"sim_shared_race",
                         "shared-memory race on s[3] (at /repo/puzzles/01_row_softmax/k.cu:12, block "
                         "(0,0,0)); its other side at k.cu:10"}})};
  const std::string text = render_results(report);
  CAPTURE(text);
  CHECK(occurrences(text, "why:") == 1);
  CHECK(text.find("why: the running sum was not rescaled") != std::string::npos);
  CHECK(text.find("(2 broader readings of this case: --verbose shows them)") != std::string::npos);
  // The simulator's finding, with its paths relative to where the learner stands, the bare name too.
  CHECK(text.find("(at puzzles/01_row_softmax/k.cu:12, block") != std::string::npos);
  CHECK(text.find("its other side at puzzles/01_row_softmax/k.cu:10") != std::string::npos);
  CHECK(occurrences(render_results(report, true), "why:") == 3);
  // Without a reading of the puzzle's own, a CUDA error is the why.
  report.puzzles.front().cases = {failed_case(
      "b", {{"launch_error", "CUDA error: cudaErrorMisalignedAddress"}, {"unwritten_elements", "nothing"}})};
  CHECK(render_results(report).find("why: CUDA error: cudaErrorMisalignedAddress") != std::string::npos);
}

TEST_CASE("an untouched stub is said once, not on every case") {
  CheckReport report = testing::fixture_report();
  std::vector<CaseReport> cases;
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    CaseReport c = failed_case(name, {{"no_device_work", "launch a kernel"}});
    c.result.message =
        "refused: your launcher launched no kernel; the outputs must be computed on the device";
    c.result.record.kernel_launches = 0;
    cases.push_back(c);
  }
  report.puzzles.front().cases = cases;
  const std::string text = render_results(report);
  CAPTURE(text);
  CHECK(occurrences(text, "launched no kernel") == 2);  // the line for every case, and one case in detail
  CHECK(text.find("every case (5): refused: your launcher launched no kernel") != std::string::npos);
  CHECK(text.find("Not started? Write the kernel") == std::string::npos);  // it wrote y without a kernel
  CHECK(text.find("why: launch a kernel") != std::string::npos);
  CHECK(text.find("FAILED: 0/5 cases passed") != std::string::npos);
  for (CaseReport& c : report.puzzles.front().cases)
    c.result.checks[0].unwritten = c.result.checks[0].elements;
  const std::string stub = render_results(report);
  CAPTURE(stub);
  CHECK(occurrences(stub, "launched no kernel") == 1);
  CHECK(stub.find(
            "Not started? Write the kernel and the launcher in puzzles/01_row_softmax/01_row_softmax.cu") !=
        std::string::npos);
}
