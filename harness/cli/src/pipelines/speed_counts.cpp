#include "pipelines/speed_counts.hpp"

#include <chrono>

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
  for (const auto& [index, sim] : run.reports)
    counts.cases[index] = CaseCounts{.sim = sim, .resources = resources};
  return counts;
}

namespace {

constexpr size_t kFilesKept = 256;  // files whose counts the cache keeps, those stored last

std::filesystem::path cache_file(const BuildConfig& config) {
  return config.build_dir / "cache" / "estimates.json";
}

std::string name_of(const PuzzleSpec& puzzle, bool sweep, int index) {
  return (sweep ? "shape " : "case ") + (sweep ? puzzle.sweep : puzzle.cases).at(index).name;
}

}  // namespace

StoredCounts stored_counts(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                           const CountsRequest& request) {
  const json cache = json::parse(read_text(cache_file(config)).value_or("{}"), nullptr, false);
  const std::string key = child_key(config, puzzle, source, Backend::sim);
  const json known = cache.is_object() && cache.contains(key) ? cache[key] : json::object();
  StoredCounts stored;
  const auto resources = known.value("resources", json::object()).get<perf::KernelResources>();
  for (int index : request.indices) {
    if (const std::string name = name_of(puzzle, request.sweep, index); known.contains(name)) {
      stored.cases[index] = CaseCounts{.sim = {{"work", known[name]}}, .resources = resources};
    } else {
      stored.missing.push_back(index);
    }
  }
  return stored;
}

void store_counts(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source, bool sweep,
                  const std::map<int, CaseCounts>& made) {
  if (made.empty()) return;
  json cache = json::parse(read_text(cache_file(config)).value_or("{}"), nullptr, false);
  if (!cache.is_object()) cache = json::object();
  json& known = cache[child_key(config, puzzle, source, Backend::sim)];
  if (!known.is_object()) known = json::object();
  for (const auto& [index, counts] : made) {
    known[name_of(puzzle, sweep, index)] = counts.sim.value("work", json::array());
    known["resources"] = counts.resources;
  }
  // When, in nanoseconds: files stored within the same second still come in order.
  known["used"] = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  while (cache.size() > kFilesKept) {  // the counts stored first go
    auto oldest = cache.begin();
    for (auto it = cache.begin(); it != cache.end(); ++it)
      if (it.value().value("used", int64_t{0}) < oldest.value().value("used", int64_t{0})) oldest = it;
    cache.erase(oldest);
  }
  std::filesystem::create_directories(cache_file(config).parent_path());
  write_atomically(cache_file(config), cache.dump() + "\n");
}

EstimateCounts source_counts(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                             const CountsRequest& request) {
  StoredCounts stored = stored_counts(config, puzzle, source, request);
  EstimateCounts counts{.build = {.ok = true, .cached = true}, .cases = std::move(stored.cases)};
  if (stored.missing.empty()) return counts;

  const ChildBuild build = build_child(config, puzzle, source, Backend::sim);
  counts.build = build.info;
  if (!build.info.ok) return counts;
  CountsRequest rest = request;
  rest.indices = stored.missing;
  EstimateCounts made = estimate_counts(build.child, puzzle, kernel_resources(config, puzzle, source), rest);
  store_counts(config, puzzle, source, request.sweep, made.cases);
  counts.cases.merge(made.cases);
  counts.problems = std::move(made.problems);
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
