// Global-memory traffic of kernels per allocation. Host threads count into their span cache
// (memory/access.hpp) and add to the allocation when a span leaves the cache or a block ends.
#pragma once
#include <vector>

#include "sim/harness_api.h"

namespace sim::memory {

void reset_traffic();                              // while no kernel runs
std::vector<harness::Traffic> labelled_traffic();  // of live allocations with a label

}  // namespace sim::memory
