// Runs work on every host core. The float64 references of the large cases are billions of operations, and
// drawing, checking and sealing their hundreds of megabytes is most of a GPU check's time on one core.
#pragma once
#include <cstdint>
#include <functional>

namespace puzzle {

// Calls body(0) .. body(count - 1); calls may run in any order and at once; body must not throw.
void parallel_for(int64_t count, const std::function<void(int64_t)>& body);

// Calls body(begin, end) on the ranges [0, grain), [grain, 2 grain), ... covering [0, count), in parallel.
// The ranges depend on count and grain alone, never on the number of cores, so that work split by range
// (a random stream per range, partial results merged in range order) gives the same answer anywhere.
void parallel_ranges(int64_t count, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

}  // namespace puzzle
