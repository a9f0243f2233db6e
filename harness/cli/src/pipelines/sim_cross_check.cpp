#include "pipelines/sim_cross_check.hpp"

#include <algorithm>
#include <optional>

#include "compile/child_build.hpp"
#include "run/child_runner.hpp"
#include "support/errors.hpp"
#include "support/temp_dir.hpp"

namespace puzzle::cli {
namespace {

// The second case cross-checked is the largest with at most this many input elements: several tiles and
// ragged tails, so that a race between tiles shows (puzzle 9's missing end-of-tile barrier passed on an
// H200 and on the simulator's two smallest cases, one key tile each), in a second or two of simulation.
constexpr int64_t kSecondCaseElements = int64_t{1} << 17;
constexpr auto kCaseTimeout = std::chrono::seconds(20);

int64_t input_elements(const PuzzleSpec& puzzle, const TestCase& test) {
  int64_t total = 0;
  for (const BufferSpec& in : puzzle.inputs) total += in.elements(test.params);
  return total;
}

SimCrossCheck run_cross_check(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                              const std::vector<int>& cases, uint64_t seed,
                              std::optional<std::chrono::steady_clock::time_point> deadline) {
  SimCrossCheck check;
  const ChildBuild build =
      build_child(config, puzzle, source, Backend::sim, CudaRules::before_the_run, FrontEndReport::rules);
  if (!build.info.ok) {
    check.skipped = "the simulator cannot build this file (" + build.info.message +
                    "): barriers and shared-memory races were not checked";
    return check;
  }
  TempDir work("puzzle-cross-check-");
  const ChildRuns runs = run_child(
      {.child = build.child,
       .work_dir = work.path(),
       .job = {.puzzle = puzzle.id, .seed = seed, .mode = "check", .cases = cases, .backend = "sim"},
       .case_timeout = kCaseTimeout,
       .deadline = deadline});
  for (const auto& [index, run] : runs.cases) {
    if (run.outcome != RunOutcome::done || !run.record.sim.is_object()) continue;
    nlohmann::json errors = nlohmann::json::array();
    for (const auto& f : run.record.sim.value("findings", nlohmann::json::array())) {
      if (f.value("severity", "") != "error") continue;
      errors.push_back(f);
      errors.back()["message"] = "on the simulator: " + f.value("message", "");
    }
    nlohmann::json seen = nlohmann::json::object();
    if (!errors.empty()) seen["findings"] = errors;
    // What the puzzle's spec requires and a GPU cannot observe: bank conflicts cost it only time.
    if (puzzle.max_bank_conflicts && run.record.sim.contains("shared_wavefronts"))
      seen["shared_wavefronts"] = run.record.sim["shared_wavefronts"];
    if (!seen.empty()) check.findings[index] = seen;
  }
  return check;
}

}  // namespace

std::vector<int> cross_check_cases(const PuzzleSpec& puzzle, const std::vector<int>& wanted) {
  std::vector<int> cases;
  for (int i : wanted) {
    if (puzzle.cases[i].sim) cases.push_back(i);
  }
  if (cases.empty()) return cases;
  const auto size = [&](int i) { return input_elements(puzzle, puzzle.cases[i]); };
  const int smallest =
      *std::min_element(cases.begin(), cases.end(), [&](int a, int b) { return size(a) < size(b); });
  std::optional<int> second;
  for (int i : cases) {
    if (i != smallest && size(i) <= kSecondCaseElements && (!second || size(i) > size(*second))) second = i;
  }
  cases = {smallest};
  if (second) cases.push_back(*second);
  std::sort(cases.begin(), cases.end());  // the child runs them in order
  return cases;
}

std::optional<std::future<SimCrossCheck>> start_sim_cross_check(
    const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source, std::vector<int> cases,
    uint64_t seed, std::optional<std::chrono::steady_clock::time_point> deadline) {
  if (cases.empty() || !config.libraries.contains("puzzle_child_sim")) return std::nullopt;
  return std::async(std::launch::async, [&config, &puzzle, source, cases, seed, deadline] {
    try {
      return run_cross_check(config, puzzle, source, cases, seed, deadline);
    } catch (const std::exception& e) {  // a missing tool or library: the GPU verdict stands, with a note
      return SimCrossCheck{.skipped = std::string("the simulator could not run: ") + e.what()};
    }
  });
}

void add_cross_check(const SimCrossCheck& check, ChildRuns& gpu_runs) {
  if (!check.skipped.empty() && !gpu_runs.cases.empty())
    gpu_runs.cases.begin()->second.notes.push_back(check.skipped);
  for (auto& [index, run] : gpu_runs.cases) {
    const auto found = check.findings.find(index);
    if (found == check.findings.end() || run.outcome != RunOutcome::done) continue;
    run.record.sim = found->second;
  }
}

}  // namespace puzzle::cli
