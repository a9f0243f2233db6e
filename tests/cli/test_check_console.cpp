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
