#include "child_runner.hpp"

#include <algorithm>
#include <thread>

#include "file_io.hpp"
#include "sim_messages.hpp"
#include "subprocess.hpp"
#include "text_format.hpp"

namespace puzzle::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr auto kWatchInterval = std::chrono::milliseconds(20);
constexpr size_t kOutputHead = 256 * 1024, kOutputTail = 64 * 1024;  // of each process's stdout / stderr
constexpr auto kTermGrace = std::chrono::seconds(1);  // time to print "[sim] timeout: ..." before SIGKILL
constexpr int kWallPerCpuBudget = 10;

// One child process over the cases still pending.
struct Process {
  std::optional<ExitStatus> status;                           // empty after a timeout
  std::optional<std::chrono::milliseconds> cpu_budget_spent;  // the budget of the case it stopped
  std::chrono::milliseconds wall_limit{0};                    // the wall-clock limit it stopped at
  bool past_deadline = false;                                 // stopped because request.deadline passed
  int in_flight = -1;                                         // started, not done, when it ended
  bool progressed = false;                                    // started or finished at least one case
  std::string stderr_text;
};

Process run_process(const ChildRunRequest& request, const std::vector<int>& pending, int number,
                    ChildRuns& runs) {
  protocol::Job job = request.job;
  job.cases = pending;
  const fs::path progress = protocol::progress_path(request.work_dir);
  fs::remove(progress);
  write_atomically(protocol::job_path(request.work_dir), nlohmann::json(job).dump(2));
  const fs::path out = request.work_dir / ("child_" + std::to_string(number) + ".stdout");
  const fs::path err = request.work_dir / ("child_" + std::to_string(number) + ".stderr");

  Process p;
  {
    std::vector<std::string> argv = request.launcher;
    argv.insert(argv.end(), {request.child.string(), request.work_dir.string()});
    GroupProcess child(argv, out, err);
    size_t seen = 0;
    auto last_event = Clock::now();
    std::chrono::milliseconds cpu_at_last_event{0};
    for (;;) {
      const auto exited = child.poll();
      const auto lines = protocol::read_lines(progress);  // after poll: an exited child's last lines are in
      for (; seen < lines.size(); ++seen) {
        const auto& line = lines[seen];
        const int index = line.value("case", -1);
        const std::string event = line.value("event", "");
        if (event == "start" || event == "launch") {
          p.in_flight = index;
        } else if (event == "done") {
          runs.cases[index] = {.outcome = RunOutcome::done, .record = line.get<protocol::CaseRecord>()};
          if (request.case_done) request.case_done(index, runs.cases[index].record);
          p.in_flight = -1;
        } else {
          continue;
        }
        p.progressed = true;
        last_event = Clock::now();
        if (!request.case_cpu_budgets.empty()) cpu_at_last_event = child.cpu_time();
      }
      if (exited) {
        p.status = exited;
        break;
      }
      const auto budget = request.case_cpu_budgets.find(p.in_flight);
      const bool budgeted = budget != request.case_cpu_budgets.end();
      if (budgeted && child.cpu_time() - cpu_at_last_event > budget->second) {
        p.cpu_budget_spent = budget->second;
        child.stop(kTermGrace);
        break;
      }
      // With a CPU budget, the wall clock only catches a child that waits without spinning: a machine
      // many times oversubscribed must not stop a case that keeps to its budget.
      p.wall_limit = budgeted ? std::max(request.case_timeout, budget->second * kWallPerCpuBudget)
                              : request.case_timeout;
      if (Clock::now() - last_event > p.wall_limit) {
        child.stop(kTermGrace);
        break;
      }
      if (request.deadline && Clock::now() >= *request.deadline) {
        p.past_deadline = true;
        child.stop(kTermGrace);
        break;
      }
      std::this_thread::sleep_for(kWatchInterval);
    }
  }
  runs.program_stdout += read_clipped(out, kOutputHead, kOutputTail);
  p.stderr_text = read_clipped(err, kOutputHead, kOutputTail);  // the tail holds the simulator's last words
  runs.program_stderr += p.stderr_text;
  return p;
}

std::string death_message(const Process& p, const fs::path& child) {
  if (auto crash = find_sim_message(p.stderr_text, "crash")) return "crashed: " + locate_crash(*crash, child);
  if (p.status->signaled) return "the program was killed by " + p.status->signal_name() + " during this case";
  return "the program ended with " + p.status->describe() +
         " during this case (does the code call exit() or abort()?)";
}

}  // namespace

ChildRuns run_child(const ChildRunRequest& request) {
  ChildRuns runs;
  std::vector<int> pending = request.job.cases;
  while (!pending.empty()) {
    if (request.deadline && Clock::now() >= *request.deadline) {  // e.g. a slow build used up the time
      for (int c : pending)
        runs.cases[c] = {.outcome = RunOutcome::not_run, .message = std::string(kNotRunAtDeadline)};
      break;
    }
    const Process p = run_process(request, pending, runs.processes++, runs);
    std::erase_if(pending, [&](int c) { return runs.cases.contains(c); });
    if (pending.empty()) break;

    if (p.past_deadline) {
      for (int c : pending) {
        runs.cases[c] =
            c == p.in_flight
                ? CaseRun{.outcome = RunOutcome::timeout, .message = std::string(kStoppedAtDeadline)}
                : CaseRun{.outcome = RunOutcome::not_run, .message = std::string(kNotRunAtDeadline)};
      }
      break;
    }
    if (!p.status) {  // timed out: the case running then (or the next one) hangs; the rest are not run
      const int hung = p.in_flight >= 0 ? p.in_flight : pending.front();
      CaseRun& run = runs.cases[hung];
      run.outcome = RunOutcome::timeout;
      run.message = p.cpu_budget_spent
                        ? "timed out: ran " +
                              format_seconds(std::chrono::duration<double>(*p.cpu_budget_spent).count()) +
                              " of CPU time without finishing (this case's limit) and was stopped"
                        : "timed out after " +
                              format_seconds(std::chrono::duration<double>(p.wall_limit).count()) +
                              " and was stopped";
      if (auto sim = find_sim_message(p.stderr_text, "timeout"))  // with the line where it is stuck
        run.notes.push_back("simulator: " + locate_crash(*sim, request.child));
      for (int c : pending) {
        if (c != hung)
          runs.cases[c] = {.outcome = RunOutcome::not_run, .message = "not run: an earlier case timed out"};
      }
      break;
    }
    if (p.in_flight >= 0) {
      runs.cases[p.in_flight] = {.outcome = RunOutcome::crashed, .message = death_message(p, request.child)};
      std::erase(pending, p.in_flight);
    }
    if (p.status->ok() || !p.progressed) {
      // A child that ends cleanly without running its cases, or dies before it starts any, would do the same
      // again: report the cases instead of retrying.
      const std::string why =
          p.status->ok() ? "the program ended without running this case"
                         : "the program ended with " + p.status->describe() + " before running any case";
      for (int c : pending) runs.cases[c] = {.outcome = RunOutcome::crashed, .message = why};
      break;
    }
    // Otherwise a fresh child runs what is left.
  }
  return runs;
}

}  // namespace puzzle::cli
