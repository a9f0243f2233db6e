#include "run/estimate_run.hpp"

#include <cstdio>

#include "run/child_runner.hpp"
#include "support/subprocess.hpp"
#include "support/temp_dir.hpp"

namespace puzzle::cli {
namespace {

// The function each launch's kernel is: addr2line's frames for a PC inside it (innermost first), the
// outermost that is neither the launch's lambda nor the simulator's (the kernel may be inlined into both).
void name_kernels(const std::filesystem::path& child, std::map<int, nlohmann::json>& reports) {
  std::vector<nlohmann::json*> launches;
  std::vector<std::string> args = {"addr2line", "-e", child.string(), "-f", "-C", "-i", "-a"};
  for (auto& [index, sim] : reports) {
    for (nlohmann::json& launch : sim["work"]) {
      const uint64_t offset = launch.value("kernel_offset", uint64_t{0});
      if (offset == 0) continue;
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%llx",
                    static_cast<unsigned long long>(offset - 1));  // a return address
      args.push_back(hex);
      launches.push_back(&launch);
    }
  }
  if (launches.empty()) return;
  std::string output;
  try {
    output = run_captured(args, std::chrono::seconds(30), StderrMode::discarded).output;
  } catch (const std::exception&) {
    return;  // no addr2line: the launches keep the names they were launched by
  }
  std::vector<std::vector<std::string>> frames;  // per address, its functions innermost first
  size_t pair = 0;
  for (size_t start = 0, end; (end = output.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = output.substr(start, end - start);
    if (line.starts_with("0x")) {
      frames.emplace_back();
      pair = 0;
    } else if (!frames.empty() && pair++ % 2 == 0) {
      frames.back().push_back(line);
    }
  }
  for (size_t i = 0; i < launches.size() && i < frames.size(); ++i) {
    for (auto it = frames[i].rbegin(); it != frames[i].rend(); ++it) {
      if (it->find("{lambda") != std::string::npos || it->starts_with("sim::") || *it == "??") continue;
      (*launches[i])["function"] = *it;
      break;
    }
  }
}

}  // namespace

EstimateRun run_estimate(const std::filesystem::path& child, int puzzle, const std::vector<int>& indices,
                         bool sweep, std::chrono::milliseconds timeout,
                         std::optional<std::chrono::steady_clock::time_point> deadline,
                         std::stop_token stop) {
  EstimateRun result;
  if (indices.empty()) return result;
  TempDir work("puzzle-estimate-");
  const ChildRuns runs = run_child({.child = child,
                                    .work_dir = work.path(),
                                    .job = {.puzzle = puzzle,
                                            .seed = 1,  // the buffers are not filled: no values are drawn
                                            .mode = sweep ? "sweep" : "check",
                                            .cases = indices,
                                            .backend = "sim",
                                            .estimate = true},
                                    .case_timeout = timeout,
                                    .deadline = deadline,
                                    .stop = stop});
  for (const auto& [index, run] : runs.cases) {
    if (run.outcome != RunOutcome::done) {
      result.problems[index] = run.message.empty() ? "not run" : run.message;
    } else if (!run.record.launch_error.empty()) {
      result.problems[index] = run.record.launch_error;
    } else {
      result.reports[index] = run.record.sim;
    }
  }
  name_kernels(child, result.reports);
  return result;
}

}  // namespace puzzle::cli
