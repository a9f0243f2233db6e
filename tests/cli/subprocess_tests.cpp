#include <doctest/doctest.h>

#include <filesystem>
#include <stdexcept>
#include <thread>

#include "subprocess.hpp"
#include "temp_dir.hpp"

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

TEST_CASE("a finished process is released at once: its group is killed, its exit not waited for") {
  TempDir dir("cli-release-");
  const auto late = dir.path() / "late.txt";
  // The leader ignores SIGTERM and takes its time to exit; its group would write `late` after 0.3 s.
  GroupProcess process({"sh", "-c", "trap '' TERM; (sleep 0.3; echo late > " + late.string() + ") & sleep 5"},
                       dir.path() / "out.txt", dir.path() / "err.txt");
  const auto started = std::chrono::steady_clock::now();
  const ExitStatus status = process.release_finished();
  CHECK(std::chrono::steady_clock::now() - started < 200ms);
  CHECK(status.ok());
  REQUIRE(process.poll().has_value());
  CHECK(process.poll()->ok());
  std::this_thread::sleep_for(600ms);
  CHECK_FALSE(std::filesystem::exists(late));  // the whole group was killed
}
