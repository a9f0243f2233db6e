#include <doctest/doctest.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <fstream>
#include <stop_token>
#include <string>
#include <thread>

#include "run/child_runner.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;
using namespace std::chrono_literals;

namespace {

ChildRuns run_fake_child(const TempDir& work, const std::string& plan, std::vector<int> cases,
                         std::chrono::milliseconds timeout = 5000ms) {
  setenv("FAKE_CHILD_PLAN", plan.c_str(), 1);
  return run_child({.child = FAKE_CHILD,
                    .work_dir = work.path(),
                    .job = {.puzzle = 1, .seed = 7, .cases = std::move(cases)},
                    .case_timeout = timeout});
}

int process_starts(const TempDir& work) {
  std::ifstream starts(work.path() / "starts");
  int lines = 0;
  for (std::string line; std::getline(starts, line);) ++lines;
  return lines;
}

// Gone, or a zombie nobody has reaped yet: either way no longer running. A SIGKILLed process ends
// asynchronously, so a busy machine (ctest -j) may still show it running for a moment: up to a second.
bool is_running(pid_t pid) {
  const auto running = [&] {
    const auto stat = read_text("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) return false;
    const auto state = stat->find(") ");
    return state != std::string::npos && (*stat)[state + 2] != 'Z';
  };
  for (int wait = 0; wait < 100 && running(); ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return running();
}

}  // namespace

TEST_CASE("every case done: one process, every record collected") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_fake_child(work, "", {0, 1, 2});
  CHECK(runs.processes == 1);
  REQUIRE(runs.cases.size() == 3);
  for (const auto& [index, run] : runs.cases) {
    CHECK(run.outcome == RunOutcome::done);
    CHECK(run.record.case_index == index);
  }
  CHECK(runs.program_stdout == "running case 0\nrunning case 1\nrunning case 2\n");
}

TEST_CASE("case_done hears of each case as it finishes, in order (bench prints each shape then)") {
  TempDir work("cli-test-");
  setenv("FAKE_CHILD_PLAN", "", 1);
  std::vector<int> heard;
  run_child({.child = FAKE_CHILD,
             .work_dir = work.path(),
             .job = {.puzzle = 1, .seed = 7, .cases = {2, 0, 1}},
             .case_done = [&](int index, const CaseRun& run) {
               CHECK(run.record.case_index == index);
               heard.push_back(index);
             }});
  CHECK(heard == std::vector<int>{2, 0, 1});
}

TEST_CASE("drawing a case's inputs (between start and launch) does not count against its timeout") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_fake_child(work, "1:slowdraw", {0, 1, 2}, 300ms);
  CHECK(runs.cases.at(0).outcome == RunOutcome::done);
  CHECK(runs.cases.at(1).outcome == RunOutcome::done);  // 1 s of drawing, 0.3 s of timeout
  CHECK(runs.cases.at(2).outcome == RunOutcome::done);
  CHECK(runs.processes == 1);
}

TEST_CASE("a case that spins past its CPU budget is stopped then, long before the wall-clock timeout") {
  TempDir work("cli-test-");
  setenv("FAKE_CHILD_PLAN", "1:spin", 1);
  const auto started = std::chrono::steady_clock::now();
  const ChildRuns runs = run_child({.child = FAKE_CHILD,
                                    .work_dir = work.path(),
                                    .job = {.puzzle = 1, .seed = 7, .cases = {0, 1, 2}},
                                    .case_timeout = 60s,
                                    .case_cpu_budgets = {{0, 400ms}, {1, 400ms}, {2, 400ms}}});
  CHECK(std::chrono::steady_clock::now() - started < 20s);  // 400 ms of CPU, however busy the machine
  CHECK(runs.cases.at(0).outcome == RunOutcome::done);
  CHECK(runs.cases.at(1).outcome == RunOutcome::timeout);
  CHECK(runs.cases.at(1).message.find("of CPU time without finishing") != std::string::npos);
  CHECK(runs.cases.at(2).outcome == RunOutcome::not_run);
}

TEST_CASE("a case that hangs times out, its process group is killed and the rest are not run") {
  TempDir work("cli-test-");
  const auto started = std::chrono::steady_clock::now();
  const ChildRuns runs = run_fake_child(work, "1:hang", {0, 1, 2}, 300ms);
  CHECK(std::chrono::steady_clock::now() - started < 4s);
  CHECK(runs.cases.at(0).outcome == RunOutcome::done);
  CHECK(runs.cases.at(1).outcome == RunOutcome::timeout);
  CHECK(runs.cases.at(1).message.find("timed out") != std::string::npos);
  CHECK(runs.cases.at(2).outcome == RunOutcome::not_run);
  CHECK(runs.processes == 1);
  const auto grandchild = read_text(work.path() / "grandchild.pid");
  REQUIRE(grandchild);
  CHECK_FALSE(is_running(std::stoi(*grandchild)));
}

TEST_CASE("a case that dies of SIGSEGV is crashed and a new process runs the rest") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_fake_child(work, "1:segv", {0, 1, 2, 3});
  CHECK(runs.cases.at(0).outcome == RunOutcome::done);
  CHECK(runs.cases.at(1).outcome == RunOutcome::crashed);
  CHECK(runs.cases.at(1).message.find("SIGSEGV") != std::string::npos);
  CHECK(runs.cases.at(2).outcome == RunOutcome::done);
  CHECK(runs.cases.at(3).outcome == RunOutcome::done);
  CHECK(runs.processes == 2);
  CHECK(process_starts(work) == 2);
}

TEST_CASE("the simulator's crash line becomes the crash message") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_fake_child(work, "0:simcrash", {0});
  REQUIRE(runs.cases.at(0).outcome == RunOutcome::crashed);
  CHECK(runs.cases.at(0).message.find("crashed: SIGSEGV in kernel k, block (1,0,0), thread (2,0,0)") == 0);
}

TEST_CASE("exit code 3 after a record (a sticky CUDA error): the case is done, a new process runs the rest") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_fake_child(work, "0:exit3,1:exit3", {0, 1, 2});
  for (int c : {0, 1, 2}) CHECK(runs.cases.at(c).outcome == RunOutcome::done);
  CHECK(runs.processes == 3);
}

TEST_CASE("exiting in the middle of a case is a crash that names the exit code") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_fake_child(work, "0:exit1", {0, 1});
  CHECK(runs.cases.at(0).outcome == RunOutcome::crashed);
  CHECK(runs.cases.at(0).message.find("exit code 1") != std::string::npos);
  CHECK(runs.cases.at(1).outcome == RunOutcome::done);
}

TEST_CASE("a program that dies before any case is not restarted") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_child({.child = "/bin/false",
                                    .work_dir = work.path(),
                                    .job = {.puzzle = 1, .seed = 7, .cases = {0, 1}},
                                    .case_timeout = 5000ms});
  CHECK(runs.processes == 1);
  for (int c : {0, 1}) {
    CHECK(runs.cases.at(c).outcome == RunOutcome::crashed);
    CHECK(runs.cases.at(c).message.find("before running any case") != std::string::npos);
  }
}

TEST_CASE("a deadline stops the child whatever the case timeout; the rest are not run") {
  TempDir work("cli-test-");
  setenv("FAKE_CHILD_PLAN", "1:hang", 1);
  const auto started = std::chrono::steady_clock::now();
  const ChildRuns runs = run_child({.child = FAKE_CHILD,
                                    .work_dir = work.path(),
                                    .job = {.puzzle = 1, .seed = 7, .cases = {0, 1, 2}},
                                    .case_timeout = 60s,
                                    .deadline = started + 500ms});
  CHECK(std::chrono::steady_clock::now() - started < 4s);
  CHECK(runs.cases.at(0).outcome == RunOutcome::done);
  CHECK(runs.cases.at(1).outcome == RunOutcome::timeout);
  CHECK(runs.cases.at(1).message == kStoppedAtDeadline);
  CHECK(runs.cases.at(2).outcome == RunOutcome::not_run);
  CHECK(runs.cases.at(2).message == kNotRunAtDeadline);
  const auto grandchild = read_text(work.path() / "grandchild.pid");
  REQUIRE(grandchild);
  CHECK_FALSE(is_running(std::stoi(*grandchild)));
}

TEST_CASE("a stop request ends a run started ahead of need at once; the rest are not run") {
  TempDir work("cli-test-");
  setenv("FAKE_CHILD_PLAN", "1:hang", 1);
  std::stop_source stop;
  std::thread requester([&] {
    std::this_thread::sleep_for(300ms);
    stop.request_stop();
  });
  const auto started = std::chrono::steady_clock::now();
  const ChildRuns runs = run_child({.child = FAKE_CHILD,
                                    .work_dir = work.path(),
                                    .job = {.puzzle = 1, .seed = 7, .cases = {0, 1, 2}},
                                    .case_timeout = 60s,
                                    .stop = stop.get_token()});
  requester.join();
  CHECK(std::chrono::steady_clock::now() - started < 3s);
  CHECK(runs.cases.at(0).outcome == RunOutcome::done);
  for (int c : {1, 2}) {
    CHECK(runs.cases.at(c).outcome == RunOutcome::not_run);
    CHECK(runs.cases.at(c).message == "not run: not needed");
  }
  const auto grandchild = read_text(work.path() / "grandchild.pid");
  REQUIRE(grandchild);
  CHECK_FALSE(is_running(std::stoi(*grandchild)));
}

TEST_CASE("a deadline already past: no process is started and every case is not run") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_child({.child = FAKE_CHILD,
                                    .work_dir = work.path(),
                                    .job = {.puzzle = 1, .seed = 7, .cases = {0, 1}},
                                    .deadline = std::chrono::steady_clock::now()});
  CHECK(runs.processes == 0);
  for (int c : {0, 1}) CHECK(runs.cases.at(c).message == kNotRunAtDeadline);
}

TEST_CASE("a progress line without the child's seal voids the whole run, earlier records included") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_fake_child(work, "1:forge", {0, 1, 2});
  REQUIRE(runs.cases.size() == 3);
  for (const auto& [index, run] : runs.cases) {
    CHECK(run.outcome == RunOutcome::refused);
    CHECK(run.message.find("refused: line 6 of the progress file: a line without the harness's seal") == 0);
  }
  CHECK(runs.processes == 1);  // no retry: a fresh process would run the same code
}

TEST_CASE("a second record for a case is refused: the first is the only one that counts") {
  TempDir work("cli-test-");
  const ChildRuns runs = run_fake_child(work, "0:twice", {0, 1});
  REQUIRE(runs.cases.size() == 2);
  CHECK(runs.cases.at(0).outcome == RunOutcome::refused);
  CHECK(runs.cases.at(0).message.find("out of turn") != std::string::npos);
}
