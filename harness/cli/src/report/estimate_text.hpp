// A speed estimate in words, as `check` prints it under a timed case on the simulator.
#pragma once
#include <string>

#include "model/speed_estimate.hpp"

namespace puzzle::cli {

// "0.52 ms" (with "at least" or "at most" for a bound), small times in microseconds.
std::string estimate_time(double ms, bool at_least = false, bool at_most = false);
// "estimated on an H100: 0.52 ms, memory-bound at 78% of copy; the solution: 0.13 ms"
std::string estimate_line(const SpeedEstimate& e);
// "sectors per request 4.0, bank conflicts none, occupancy 24 of 64 warps per SM (registers: 79),
// 132 of 132 SMs busy, bound by DRAM bandwidth"
std::string counters_line(const SpeedEstimate& e);
// "16x the solution's estimate: one block: 1 of 132 SMs busy"; empty when it is not slow.
std::string slow_line(const SpeedEstimate& e);

}  // namespace puzzle::cli
