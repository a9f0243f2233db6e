// The simulator's counts of a timed case -> its SpeedEstimate on a GPU, with the solution's beside it and,
// at 10x the solution's time or more, the reason (harness/perf).
#pragma once
#include <nlohmann/json.hpp>
#include <optional>

#include "gpu_table.hpp"
#include "model/speed_estimate.hpp"
#include "registry.hpp"
#include "time_model.hpp"

namespace puzzle::cli {

// What an estimate is made of: a case's sim report from an estimate run, and its file's registers.
struct CaseCounts {
  nlohmann::json sim;
  perf::KernelResources resources;
};

inline constexpr double kSlowRatio = 10;  // an estimate this many times the solution's gets a reason

SpeedEstimate speed_estimate(const PuzzleSpec& puzzle, const Params& params, const perf::GpuSpec& gpu,
                             const CaseCounts& mine, const std::optional<CaseCounts>& solution);

// The GPU `--gpu` names ("h100", "h200"), the H100 when empty; UsageError for another.
const perf::GpuSpec& estimate_gpu(const std::string& key);

}  // namespace puzzle::cli
