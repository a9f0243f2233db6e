#include "run/sanitize_check.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "run/child_runner.hpp"
#include "run/device_probe.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

namespace puzzle::cli {
namespace {

namespace fs = std::filesystem;

constexpr int kSlowdown = 20;     // the sanitizer's slowdown the case timeout allows for
constexpr int kPrintLimit = 100;  // reports per tool

std::optional<fs::path> find_compute_sanitizer(const BuildConfig& config) {
  std::vector<fs::path> candidates;
  if (!config.nvcc.empty()) candidates.push_back(config.nvcc.parent_path() / "compute-sanitizer");
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      candidates.push_back(fs::path(dir) / "compute-sanitizer");
  }
  for (const auto& c : candidates) {
    if (access(c.c_str(), X_OK) == 0) return c;
  }
  return std::nullopt;
}

std::string all_logs(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> logs;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with(prefix)) logs.push_back(entry.path());
  }
  std::sort(logs.begin(), logs.end());
  std::string text;
  for (const auto& log : logs) text += read_text(log).value_or("");
  return text;
}

}  // namespace

fs::path require_sanitizer(const BuildConfig& config, BackendRequest backend) {
  if (backend == BackendRequest::sim) {
    throw UsageError(
        "--sanitize runs NVIDIA's compute-sanitizer on a GPU; it cannot be used with --backend sim "
        "(the simulator checks memory accesses, races and barriers by itself)");
  }
  const GpuProbe gpu = probe_gpu(config);
  if (!gpu.found) {
    throw EnvironmentError(
        "--sanitize needs an NVIDIA GPU: compute-sanitizer runs the kernels on one (" + gpu.why_not +
        "). Without a GPU, run `puzzle check` alone: the simulator already reports out-of-bounds "
        "accesses, races and barrier divergence with file and line");
  }
  if (auto sanitizer = find_compute_sanitizer(config)) return *sanitizer;
  throw EnvironmentError(
      "--sanitize needs compute-sanitizer (part of the CUDA toolkit); it is not beside nvcc (" +
      config.nvcc.string() + ") nor on the PATH");
}

std::vector<SanitizerRun> run_sanitizers(const fs::path& sanitizer, const fs::path& child,
                                         const PuzzleSpec& puzzle, uint64_t seed,
                                         std::chrono::milliseconds case_timeout) {
  std::vector<int> cases;
  for (size_t i = 0; i < puzzle.cases.size(); ++i) {
    if (puzzle.cases[i].sim) cases.push_back(static_cast<int>(i));
  }
  std::vector<SanitizerRun> runs;
  for (const char* tool : kSanitizerTools) {
    TempDir work("puzzle-sanitize-");
    const std::string prefix = std::string("sanitizer-") + tool;
    const ChildRuns child_runs = run_child(
        {.child = child,
         .work_dir = work.path(),
         .job = {.puzzle = puzzle.id, .seed = seed, .mode = "check", .cases = cases, .backend = "gpu"},
         .case_timeout = case_timeout * kSlowdown,
         .launcher = {sanitizer.string(), "--tool", tool, "--print-limit", std::to_string(kPrintLimit),
                      "--log-file", (work.path() / (prefix + "-%p.log")).string()}});
    SanitizerRun run{.tool = tool, .output = parse_sanitizer_output(tool, all_logs(work.path(), prefix))};
    for (const auto& [index, outcome] : child_runs.cases) {
      if (outcome.outcome == RunOutcome::timeout)
        run.problem = "case " + puzzle.cases[index].name + " " + outcome.message;
    }
    if (run.problem.empty() && !run.output.tool_errors.empty()) {
      run.problem = "compute-sanitizer failed: " + run.output.tool_errors.front();
    }
    if (run.problem.empty() && !run.output.errors && run.output.findings.empty()) {
      run.problem =
          "compute-sanitizer printed no summary; its output: " + child_runs.program_stderr.substr(0, 2000);
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

int sanitizer_errors(const std::vector<SanitizerRun>& runs) {
  int total = 0;
  for (const auto& run : runs) {
    int counted = 0;
    for (const auto& f : run.output.findings) counted += f.severity == "error" ? f.count : 0;
    total += std::max(counted, run.output.errors.value_or(0));
  }
  return total;
}

void apply_sanitizer_verdict(const std::vector<SanitizerRun>& runs, CheckReport& report) {
  if (report.exit_code != kExitPassed) return;
  if (sanitizer_errors(runs) > 0) {
    report.exit_code = kExitKernelFailed;
    for (PuzzleReport& puzzle : report.puzzles) puzzle.status = PuzzleStatus::failed;
    return;
  }
  const bool unchecked =
      std::any_of(runs.begin(), runs.end(), [](const SanitizerRun& r) { return !r.problem.empty(); });
  if (unchecked) report.exit_code = kExitEnvironment;
}

void print_sanitizer_runs(const std::vector<SanitizerRun>& runs, Style style, std::ostream& out) {
  out << "\n" << style("compute-sanitizer:", Tone::bold) << "\n";
  for (const auto& run : runs) {
    const int errors = sanitizer_errors({run});
    out << "  " << run.tool << ": ";
    if (errors > 0) {
      out << style(std::to_string(errors) + " errors", Tone::bad);
    } else if (!run.problem.empty()) {
      out << style("not checked", Tone::warn);  // no errors found is not no errors
    } else {
      out << style("no errors", Tone::good);
    }
    if (!run.problem.empty()) out << style(" (" + run.problem + ")", Tone::warn);
    out << "\n";
    for (const auto& f : run.output.findings) {
      out << "    "
          << style((f.severity == "error" ? "" : f.severity + ": ") + f.message,
                   f.severity == "error" ? Tone::bad : Tone::warn);
      if (!f.file.empty()) out << " at " << f.file << ":" << f.line;
      if (!f.thread.empty()) out << ", thread " << f.thread << " of block " << f.block;
      if (f.count > 1) out << " (" << f.count << " times)";
      out << "\n";
      for (const auto& d : f.details) out << "      " << d << "\n";
    }
  }
}

nlohmann::json sanitizer_json(const std::vector<SanitizerRun>& runs) {
  nlohmann::json tools = nlohmann::json::array();
  for (const auto& run : runs) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : run.output.findings) {
      findings.push_back({{"severity", f.severity},
                          {"kind", f.kind},
                          {"message", f.message},
                          {"kernel", f.kernel},
                          {"file", f.file},
                          {"line", f.line},
                          {"block", f.block},
                          {"thread", f.thread},
                          {"count", f.count},
                          {"details", f.details}});
    }
    tools.push_back({{"tool", run.tool},
                     {"errors", sanitizer_errors({run})},
                     {"problem", run.problem.empty() ? nlohmann::json(nullptr) : nlohmann::json(run.problem)},
                     {"findings", findings}});
  }
  return tools;
}

}  // namespace puzzle::cli
