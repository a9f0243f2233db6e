// Runs body(0) .. body(count - 1) on every host core. The float64 references of the large attention cases
// are billions of operations: on one core they took longer than the kernels' own timeout.
#pragma once
#include <cstdint>
#include <functional>

namespace puzzle {

// Calls may run in any order and at once; body must not throw.
void parallel_for(int64_t count, const std::function<void(int64_t)>& body);

}  // namespace puzzle
