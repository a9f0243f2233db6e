// Runs the child over a list of cases: one process at a time, a timeout per case, a fresh process for the
// cases left after a crash. Whatever happens, every case comes back with an outcome.
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol.hpp"

namespace puzzle::cli {

enum class RunOutcome {
  done,     // the child wrote its record (and outputs) for the case
  crashed,  // the child died, or exited, while running it
  timeout,  // it ran longer than the timeout and was killed
  not_run,  // an earlier case timed out
  refused,  // the progress file held a line the child's harness did not write: nothing of the run counts
};

struct CaseRun {
  RunOutcome outcome = RunOutcome::not_run;
  protocol::CaseRecord record;     // when done
  protocol::SessionKey key;        // when done: the key its record and output files are sealed with
  std::string message;             // why it did not finish
  std::vector<std::string> notes;  // e.g. the simulator's view of the hang
};

struct ChildRunRequest {
  std::filesystem::path child;
  std::filesystem::path work_dir;  // job.json, progress.jsonl and the outputs go here
  protocol::Job job;               // job.cases: every case to run, in order
  std::chrono::milliseconds case_timeout{10000};
  // By case index: the CPU time its run may take before it counts as hung, whatever the machine's load (a
  // hang on the simulator spins). Such a case's wall-clock limit is the larger of case_timeout and ten
  // times its budget. Cases not here: no budget.
  std::map<int, std::chrono::milliseconds> case_cpu_budgets;
  std::vector<std::string> launcher;  // the child runs through this program (compute-sanitizer ...)
  std::optional<std::chrono::steady_clock::time_point> deadline;  // for all the cases: stop the child then
  std::function<void(int case_index, const CaseRun&)> case_done;  // as each case finishes (sealed, first)
};

// The messages of the case a deadline stopped (outcome timeout) and of those it left (not_run), so that a
// caller can tell them from a case that hangs and say what the deadline was.
inline constexpr std::string_view kStoppedAtDeadline = "stopped: the deadline passed during this case";
inline constexpr std::string_view kNotRunAtDeadline = "not run: the deadline passed";

struct ChildRuns {
  std::map<int, CaseRun> cases;                // by case index, one per job case
  std::string program_stdout, program_stderr;  // of every process started, in order
  int processes = 0;
};

ChildRuns run_child(const ChildRunRequest& request);

}  // namespace puzzle::cli
