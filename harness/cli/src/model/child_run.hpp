// What the child did with each case of a run: filled by the run stage (run/child_runner.hpp), read by the
// judge and the pipelines.
#pragma once
#include <map>
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

// The messages of the case a deadline stopped (outcome timeout) and of those it left (not_run), so that a
// caller can tell them from a case that hangs and say what the deadline was.
inline constexpr std::string_view kStoppedAtDeadline = "stopped: the deadline passed during this case";
inline constexpr std::string_view kNotRunAtDeadline = "not run: the deadline passed";

struct ChildRuns {
  std::map<int, CaseRun> cases;                // by case index, one per job case
  std::string program_stdout, program_stderr;  // of every process started, in order
  int processes = 0;
};

}  // namespace puzzle::cli
