#include "pipelines/speed_counts.hpp"

#include "compile/child_build.hpp"
#include "compile/kernel_resources.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "run/estimate_run.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {

using nlohmann::json;

EstimateCounts estimate_counts(const std::filesystem::path& child, const PuzzleSpec& puzzle,
                               const perf::KernelResources& resources, const CountsRequest& request) {
  const EstimateRun run =
      run_estimate(child, puzzle.id, request.indices, request.sweep, request.timeout, request.deadline);
  EstimateCounts counts{.problems = run.problems};
  for (const auto& [index, sim] : run.reports) counts.cases[index] = CaseCounts{.sim = sim, .resources = resources};
  return counts;
}

EstimateCounts source_counts(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                             const CountsRequest& request) {
  const auto cache_file = config.build_dir / "cache" / "estimates.json";
  json cache = json::parse(read_text(cache_file).value_or("{}"), nullptr, false);
  if (!cache.is_object()) cache = json::object();
  json& known = cache[child_key(config, puzzle, source, Backend::sim)];
  if (!known.is_object()) known = json::object();
  const std::vector<TestCase>& list = request.sweep ? puzzle.sweep : puzzle.cases;
  const auto name_of = [&](int index) { return (request.sweep ? "shape " : "case ") + list.at(index).name; };

  EstimateCounts counts{.build = {.ok = true, .cached = true}};
  std::vector<int> missing;
  const auto resources = known.value("resources", json::object()).get<perf::KernelResources>();
  for (int index : request.indices) {
    if (known.contains(name_of(index))) {
      counts.cases[index] = CaseCounts{.sim = {{"work", known[name_of(index)]}}, .resources = resources};
    } else {
      missing.push_back(index);
    }
  }
  if (missing.empty()) return counts;

  const ChildBuild build = build_child(config, puzzle, source, Backend::sim);
  counts.build = build.info;
  if (!build.info.ok) return counts;
  CountsRequest rest = request;
  rest.indices = missing;
  const perf::KernelResources measured = kernel_resources(config, puzzle, source);
  EstimateCounts made = estimate_counts(build.child, puzzle, measured, rest);
  for (auto& [index, c] : made.cases) {
    known[name_of(index)] = c.sim.value("work", json::array());
    counts.cases[index] = std::move(c);
  }
  counts.problems = std::move(made.problems);
  known["resources"] = measured;
  write_atomically(cache_file, cache.dump() + "\n");
  return counts;
}

std::map<int, CaseCounts> solution_counts(const BuildConfig& config, const PuzzleSpec& puzzle,
                                          const CountsRequest& request) {
  const auto ladder = solution_ladder(puzzle, config.source_dir);
  if (request.indices.empty() || ladder.empty()) return {};
  // The fastest version, the top of the ladder: the yardstick a learner's kernel is held to.
  const PuzzleSource source = load_source(puzzle, SourceKind::solution, config.source_dir, ladder.back());
  return source_counts(config, puzzle, source, request).cases;
}

}  // namespace puzzle::cli
