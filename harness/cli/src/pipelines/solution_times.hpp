// The fastest reference solution's GPU timings, the yardstick printed beside the learner's.
#pragma once
#include <chrono>
#include <map>
#include <optional>
#include <vector>

#include "model/build_config.hpp"
#include "model/check_report.hpp"

namespace puzzle::cli {

// The fastest solution's (the top of the ladder) median time (ms) per case index on this device: built and
// timed once per device and child (solution text, tools, harness libraries), then read from
// build/cache/perf.json. Cases it cannot time (by the deadline, too) are left out.
std::map<int, double> solution_times(const BuildConfig& config, const PuzzleSpec& puzzle,
                                     const std::vector<int>& cases, const DeviceInfo& device,
                                     std::chrono::milliseconds case_timeout,
                                     std::optional<std::chrono::steady_clock::time_point> deadline = {});

}  // namespace puzzle::cli
