#include <doctest/doctest.h>

#include <stdexcept>
#include <stop_token>
#include <thread>

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

TEST_CASE("run_captured kills a program whose work is no longer wanted, and what it started") {
  std::stop_source stop;
  std::thread requester([&] {
    std::this_thread::sleep_for(200ms);
    stop.request_stop();
  });
  const auto started = std::chrono::steady_clock::now();
  const CapturedRun run =
      run_captured({"sh", "-c", "sleep 30 & wait"}, std::nullopt, StderrMode::merged, stop.get_token());
  requester.join();
  CHECK(run.stopped);
  CHECK_FALSE(run.timed_out);
  CHECK_FALSE(run.status.ok());
  CHECK(std::chrono::steady_clock::now() - started < 3s);
}

TEST_CASE("a program that does not exist cannot be started") {
  CHECK_THROWS_AS(run_captured({"/nonexistent/compiler"}), std::runtime_error);
}
