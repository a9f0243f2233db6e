#include <doctest/doctest.h>

#include <stdexcept>

#include "support/subprocess.hpp"

using namespace puzzle::cli;
using namespace std::chrono_literals;

TEST_CASE("run_captured collects stdout and stderr and the exit status") {
  const CapturedRun run = run_captured({"sh", "-c", "echo out; echo err >&2; exit 4"});
  CHECK(run.output.find("out\n") != std::string::npos);
  CHECK(run.output.find("err\n") != std::string::npos);
  CHECK_FALSE(run.status.signaled);
  CHECK(run.status.code == 4);
  CHECK(run.status.describe() == "exit code 4");
}

TEST_CASE("run_captured stops a program that outlives its timeout") {
  const auto started = std::chrono::steady_clock::now();
  const CapturedRun run = run_captured({"sleep", "30"}, 200ms);
  CHECK(run.timed_out);
  CHECK(run.status.signaled);
  CHECK(run.status.signal_name() == "SIGKILL");
  CHECK(std::chrono::steady_clock::now() - started < 5s);
}

TEST_CASE("a program that does not exist cannot be started") {
  CHECK_THROWS_AS(run_captured({"/nonexistent/compiler"}), std::runtime_error);
}
