// On a GPU, `check` also runs the smallest cases on the simulator, at the same time as the GPU run: a
// barrier reached by only some threads, or a shared-memory race, can give right values on the hardware
// (an H200 passes a kernel with __syncthreads() in a divergent branch), and the simulator sees both
// exactly. Its error findings fail the GPU case as they fail a simulator check, and so do its bank-conflict
// counts where the puzzle's spec has a budget (max_bank_conflicts), which a GPU cannot observe. Why the
// simulator rather than compute-sanitizer: docs/grading.md.
#pragma once
#include <chrono>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/build_config.hpp"
#include "model/child_run.hpp"
#include "model/puzzle_source.hpp"

namespace puzzle::cli {

struct SimCrossCheck {
  // case index -> what the simulator saw that fails a GPU case (JSON as in "sim"): its error findings and,
  // where the puzzle has a bank-conflict budget, its shared-memory wavefronts
  std::map<int, nlohmann::json> findings;
  std::string skipped;  // why it did not run (a feature the simulator lacks), or empty
};

// The cases it runs, of `wanted` (indices into the puzzle's cases) that the simulator runs: the smallest,
// and the largest of at most 131072 input elements (several tiles, ragged tails).
std::vector<int> cross_check_cases(const PuzzleSpec& puzzle, const std::vector<int>& wanted);

// Builds the simulator child and runs `cases` on another thread; empty when there is no simulator.
std::optional<std::future<SimCrossCheck>> start_sim_cross_check(
    const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source, std::vector<int> cases,
    uint64_t seed, std::optional<std::chrono::steady_clock::time_point> deadline);

// Puts the findings into the GPU runs' records (only done cases), where judging reads them.
void add_cross_check(const SimCrossCheck& check, ChildRuns& gpu_runs);

}  // namespace puzzle::cli
