// Runs the child over a list of cases: one process at a time, a timeout per case, a fresh process for the
// cases left after a crash. Whatever happens, every case comes back with an outcome.
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "model/child_run.hpp"
#include "protocol.hpp"

namespace puzzle::cli {

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
  std::stop_token stop;  // a run started ahead of need that is no longer wanted: stop it, run nothing more
  std::function<void(int case_index, const CaseRun&)> case_done;  // as each case finishes (sealed, first)
};

ChildRuns run_child(const ChildRunRequest& request);

}  // namespace puzzle::cli
