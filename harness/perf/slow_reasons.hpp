// Why a kernel's estimate is far from the solution's, in a learner's words: the first things a performance
// engineer would look at, in the order the binding limit suggests ("one block: 1 of 132 SMs busy").
#pragma once
#include <string>

#include "gpu_table.hpp"
#include "time_model.hpp"

namespace puzzle::perf {

// The kind of limit in two words: "memory-bound", "compute-bound", "latency-bound".
std::string bound_words(Limit binding);

// One or two reasons, joined by "; " (never empty when `kernel` has a launch).
std::string slow_reason(const Estimate& kernel, const Estimate& solution, const GpuSpec& gpu);

}  // namespace puzzle::perf
