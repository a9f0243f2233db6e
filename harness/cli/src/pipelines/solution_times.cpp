#include "pipelines/solution_times.hpp"

#include <nlohmann/json.hpp>

#include "compile/child_build.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "run/child_runner.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

namespace puzzle::cli {
namespace {

using nlohmann::json;

constexpr uint64_t kSolutionSeed = 1;  // timings do not depend on the values drawn

// Median time per case index, for the cases the child timed (a crash or timeout leaves a case out).
std::map<int, double> bench(const std::filesystem::path& child, int puzzle_id, const std::vector<int>& cases,
                            std::chrono::milliseconds case_timeout,
                            std::optional<std::chrono::steady_clock::time_point> deadline) {
  TempDir work("puzzle-bench-");
  const ChildRuns runs = run_child(
      {.child = child,
       .work_dir = work.path(),
       .job = {.puzzle = puzzle_id, .seed = kSolutionSeed, .mode = "bench", .cases = cases, .backend = "gpu"},
       .case_timeout = case_timeout,
       .deadline = deadline});
  std::map<int, double> times;
  for (const auto& [index, run] : runs.cases) {
    if (run.outcome == RunOutcome::done && run.record.time_ms > 0) times[index] = run.record.time_ms;
  }
  return times;
}

}  // namespace

std::map<int, double> solution_times(const BuildConfig& config, const PuzzleSpec& puzzle,
                                     const std::vector<int>& cases, const DeviceInfo& device,
                                     std::chrono::milliseconds case_timeout,
                                     std::optional<std::chrono::steady_clock::time_point> deadline) {
  const auto ladder = solution_ladder(puzzle, config.source_dir);
  if (cases.empty() || ladder.empty()) return {};
  // The fastest version, the top of the ladder: the yardstick a learner's kernel is held to.
  const PuzzleSource source = load_source(puzzle, SourceKind::solution, config.source_dir, ladder.back());
  const auto cache_file = config.build_dir / "cache" / "perf.json";
  json cache = json::parse(read_text(cache_file).value_or("{}"), nullptr, false);
  if (!cache.is_object()) cache = json::object();
  json& known = cache[device.name][child_key(config, puzzle, source, Backend::gpu)];

  std::map<int, double> times;
  std::vector<int> missing;
  for (int index : cases) {
    const std::string& name = puzzle.cases.at(index).name;
    if (known.contains(name)) {
      times[index] = known[name].get<double>();
    } else {
      missing.push_back(index);
    }
  }
  if (missing.empty()) return times;

  const ChildBuild build = build_child(config, puzzle, source, Backend::gpu);
  if (!build.info.ok) return times;
  for (const auto& [index, ms] : bench(build.child, puzzle.id, missing, case_timeout, deadline)) {
    times[index] = ms;
    known[puzzle.cases.at(index).name] = ms;
  }
  write_atomically(cache_file, cache.dump(2) + "\n");
  return times;
}

}  // namespace puzzle::cli
