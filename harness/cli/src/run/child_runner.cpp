#include "run/child_runner.hpp"

#include <algorithm>
#include <thread>

#include "report/text_format.hpp"
#include "run/sim_messages.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"

namespace puzzle::cli {
namespace {

namespace fs = std::filesystem;

// The learner's code lies beside the runner as learner.so (child_build.hpp); the simulator reports its PCs
// as offsets into it.
fs::path learner_code(const ChildRunRequest& request) {
  return request.child.parent_path() / "learner.so";
}

using Clock = std::chrono::steady_clock;

constexpr auto kWatchInterval = std::chrono::milliseconds(20);
constexpr size_t kOutputHead = 256 * 1024, kOutputTail = 64 * 1024;  // of each process's stdout / stderr
constexpr auto kTermGrace = std::chrono::seconds(1);  // time to print "[sim] timeout: ..." before SIGKILL
constexpr int kWallPerCpuBudget = 10;
// Between a case's "start" and "launch" the child runs only the harness's input drawing (a float64
// forward pass for the backward puzzles' o and lse: seconds, more on a loaded machine), not the learner's
// code: the case's timeout starts at "launch", and this bounds the drawing.
constexpr auto kInputDrawingLimit = std::chrono::minutes(10);

// One child process over the cases still pending.
struct Process {
  std::optional<ExitStatus> status;                           // empty after a timeout
  std::optional<std::chrono::milliseconds> cpu_budget_spent;  // the budget of the case it stopped
  std::chrono::milliseconds wall_limit{0};                    // the wall-clock limit it stopped at
  bool past_deadline = false;                                 // stopped because request.deadline passed
  bool stop_requested = false;                                // stopped because request.stop asked
  int in_flight = -1;                                         // started, not done, when it ended
  bool drawing_inputs = false;                                // between "start" and "launch"
  bool progressed = false;                                    // started or finished at least one case
  std::string forged;  // why a progress line was refused (empty: every line was genuine)
  std::string stderr_text;
};

// Accepts the child's progress lines in order: each must carry the process's seal and the next sequence
// number, and follow start -> launch -> done for the next pending case. The first line that does not is
// a forgery: what the learner's code wrote can only make the run fail.
class ProgressCheck {
 public:
  ProgressCheck(const protocol::SessionKey& key, const std::vector<int>& pending)
      : key_(key), pending_(pending) {}

  // The genuine line, or `problem` set (and every later line refused too).
  std::optional<nlohmann::json> accept(const std::string& raw, std::string& problem) {
    if (!problem.empty()) return std::nullopt;
    protocol::CheckedLine checked = protocol::check_line(raw, key_, seq_);
    if (checked.problem.empty()) checked.problem = out_of_order(checked.line);
    if (!checked.problem.empty()) {
      problem = "line " + std::to_string(seq_ + 1) + " of the progress file: " + checked.problem;
      return std::nullopt;
    }
    ++seq_;
    return std::move(checked.line);
  }

 private:
  std::string out_of_order(const nlohmann::json& line) {
    const std::string event = line.value("event", "");
    if (ended_) return "a line after the end of the run";
    if (event == "end") {
      ended_ = true;
      return "";
    }
    const int index = line.value("case", -1);
    if (next_ >= pending_.size() || index != pending_[next_])
      return "a record for case " + std::to_string(index) + " out of turn";
    static const char* const kOrder[] = {"start", "launch", "done"};
    if (event != kOrder[step_])
      return "a \"" + event + "\" record for case " + std::to_string(index) + " out of turn";
    if (++step_ == 3) step_ = 0, ++next_;
    return "";
  }

  protocol::SessionKey key_;
  std::vector<int> pending_;
  int64_t seq_ = 0;
  size_t next_ = 0;  // index into pending_ of the case under way
  int step_ = 0;     // 0 start, 1 launch, 2 done
  bool ended_ = false;
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
    argv.insert(argv.end(),
                {request.child.string(), request.work_dir.string(), learner_code(request).string()});
    const protocol::SessionKey key = protocol::SessionKey::random();
    GroupProcess child(argv, out, err, key.hex() + "\n");
    ProgressCheck check(key, pending);
    size_t seen = 0;
    auto last_event = Clock::now();
    std::chrono::milliseconds cpu_at_last_event{0};
    for (;;) {
      const auto exited = child.poll();
      const auto lines =
          protocol::read_raw_lines(progress);  // after poll: an exited child's last lines are in
      for (; seen < lines.size(); ++seen) {
        const auto line = check.accept(lines[seen], p.forged);
        if (!line) break;
        const int index = line->value("case", -1);
        const std::string event = line->value("event", "");
        if (event == "start" || event == "launch") {
          p.in_flight = index;
          p.drawing_inputs = event == "start";
        } else if (event == "done") {
          runs.cases[index] = {
              .outcome = RunOutcome::done, .record = line->get<protocol::CaseRecord>(), .key = key};
          p.drawing_inputs = false;
          if (request.case_done) request.case_done(index, runs.cases[index]);
          p.in_flight = -1;
        } else {
          continue;
        }
        p.progressed = true;
        last_event = Clock::now();
        if (!request.case_cpu_budgets.empty()) cpu_at_last_event = child.cpu_time();
      }
      if (!p.forged.empty()) {
        child.stop(kTermGrace);
        break;
      }
      if (exited) {
        p.status = exited;
        break;
      }
      const auto budget = request.case_cpu_budgets.find(p.in_flight);
      const bool budgeted = budget != request.case_cpu_budgets.end();
      if (budgeted && !p.drawing_inputs && child.cpu_time() - cpu_at_last_event > budget->second) {
        p.cpu_budget_spent = budget->second;
        child.stop(kTermGrace);
        break;
      }
      // With a CPU budget, the wall clock only catches a child that waits without spinning: a machine
      // many times oversubscribed must not stop a case that keeps to its budget.
      p.wall_limit = budgeted ? std::max(request.case_timeout, budget->second * kWallPerCpuBudget)
                              : request.case_timeout;
      if (p.drawing_inputs)
        p.wall_limit = std::max<std::chrono::milliseconds>(p.wall_limit, kInputDrawingLimit);
      if (Clock::now() - last_event > p.wall_limit) {
        child.stop(kTermGrace);
        break;
      }
      if (request.deadline && Clock::now() >= *request.deadline) {
        p.past_deadline = true;
        child.stop(kTermGrace);
        break;
      }
      if (request.stop.stop_requested()) {
        p.stop_requested = true;
        child.stop(std::chrono::milliseconds(0));  // nobody reads what it would say
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

std::string death_message(const Process& p, const fs::path& code) {
  if (auto crash = find_sim_message(p.stderr_text, "crash")) return "crashed: " + locate_crash(*crash, code);
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
    if (!p.forged.empty()) {  // nothing this run reported can be trusted, not even its earlier records
      for (int c : request.job.cases)
        runs.cases[c] = {.outcome = RunOutcome::refused, .message = "refused: " + p.forged};
      break;
    }
    std::erase_if(pending, [&](int c) { return runs.cases.contains(c); });
    if (pending.empty()) break;
    if (p.stop_requested) {
      for (int c : pending)
        runs.cases[c] = {.outcome = RunOutcome::not_run, .message = "not run: not needed"};
      break;
    }

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
        run.notes.push_back("simulator: " + locate_crash(*sim, learner_code(request)));
      for (int c : pending) {
        if (c != hung)
          runs.cases[c] = {.outcome = RunOutcome::not_run, .message = "not run: an earlier case timed out"};
      }
      break;
    }
    if (p.in_flight >= 0) {
      runs.cases[p.in_flight] = {.outcome = RunOutcome::crashed,
                                 .message = death_message(p, learner_code(request))};
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
