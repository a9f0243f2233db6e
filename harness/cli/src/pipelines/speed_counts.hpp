// The simulator's counts behind speed estimates: a built child's estimate run (run/estimate_run.hpp) with
// its file's kernel resources (nvcc), and the same for any puzzle file, built if need be, kept in
// build/cache/estimates/, a file per child (the file's text, its headers, the tools and the harness
// libraries) with its counts by case: a file estimated once is not run again.
#pragma once
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "judge/speed_estimates.hpp"
#include "model/build_config.hpp"
#include "model/puzzle_source.hpp"

namespace puzzle::cli {

struct CountsRequest {
  std::vector<int> indices;  // of the puzzle's cases, or of its bench shapes with `sweep`
  bool sweep = false;
  std::chrono::milliseconds timeout{60000};  // per case
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::stop_token stop;  // a run started before it is known to be wanted: stop it when it is not
};

struct EstimateCounts {
  BuildInfo build;                      // source_counts: the child's build (cached: every count was known)
  std::map<int, CaseCounts> cases;      // by index
  std::map<int, std::string> problems;  // by index: why a case has no counts
};

EstimateCounts estimate_counts(const std::filesystem::path& child, const PuzzleSpec& puzzle,
                               const perf::KernelResources& resources, const CountsRequest& request);

// What build/cache/estimates/ holds of a file's counts: the cases of the request it has, and those it
// has not. store_counts adds a run's; the cache keeps the counts of the 256 files stored last.
struct StoredCounts {
  std::map<int, CaseCounts> cases;
  std::vector<int> missing;
};
StoredCounts stored_counts(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                           const CountsRequest& request);
void store_counts(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source, bool sweep,
                  const std::map<int, CaseCounts>& made);

EstimateCounts source_counts(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                             const CountsRequest& request);

// The top of the ladder's; none for a puzzle without solutions, or where it does not build.
std::map<int, CaseCounts> solution_counts(const BuildConfig& config, const PuzzleSpec& puzzle,
                                          const CountsRequest& request);

}  // namespace puzzle::cli
