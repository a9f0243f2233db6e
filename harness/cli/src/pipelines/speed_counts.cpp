#include "pipelines/speed_counts.hpp"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "compile/child_build.hpp"
#include "compile/kernel_resources.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "run/estimate_run.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {

using nlohmann::json;

EstimateCounts estimate_counts(const std::filesystem::path& child, const PuzzleSpec& puzzle,
                               const perf::KernelResources& resources, const CountsRequest& request) {
  const EstimateRun run = run_estimate(child, puzzle.id, request.indices, request.sweep, request.timeout,
                                       request.deadline, request.stop);
  EstimateCounts counts{.problems = run.problems};
  for (const auto& [index, sim] : run.reports)
    counts.cases[index] = CaseCounts{.sim = sim, .resources = resources};
  return counts;
}

namespace {

constexpr size_t kFilesKept = 256;  // files whose counts the cache keeps, those stored last

// One small file per child: a check reads only its own file's and the solution's counts.
std::filesystem::path counts_file(const BuildConfig& config, const PuzzleSpec& puzzle,
                                  const PuzzleSource& source) {
  return config.build_dir / "cache" / "estimates" /
         (child_key(config, puzzle, source, Backend::sim) + ".json");
}

std::string name_of(const PuzzleSpec& puzzle, bool sweep, int index) {
  return (sweep ? "shape " : "case ") + (sweep ? puzzle.sweep : puzzle.cases).at(index).name;
}

// The files stored first go, beyond kFilesKept.
void prune(const std::filesystem::path& dir) {
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    files.emplace_back(entry.last_write_time(ec), entry.path());
  if (files.size() <= kFilesKept) return;
  std::sort(files.begin(), files.end());
  for (size_t i = 0; i + kFilesKept < files.size(); ++i) std::filesystem::remove(files[i].second, ec);
}

}  // namespace

StoredCounts stored_counts(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                           const CountsRequest& request) {
  const json known =
      json::parse(read_text(counts_file(config, puzzle, source)).value_or("{}"), nullptr, false);
  StoredCounts stored;
  const auto resources = known.is_object()
                             ? known.value("resources", json::object()).get<perf::KernelResources>()
                             : perf::KernelResources{};
  for (int index : request.indices) {
    if (const std::string name = name_of(puzzle, request.sweep, index);
        known.is_object() && known.contains(name)) {
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
  const std::filesystem::path file = counts_file(config, puzzle, source);
  json known = json::parse(read_text(file).value_or("{}"), nullptr, false);
  if (!known.is_object()) known = json::object();
  for (const auto& [index, counts] : made) {
    known[name_of(puzzle, sweep, index)] = counts.sim.value("work", json::array());
    known["resources"] = counts.resources;
  }
  std::filesystem::create_directories(file.parent_path());
  write_atomically(file, known.dump() + "\n");
  prune(file.parent_path());
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
