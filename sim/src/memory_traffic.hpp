// Global-memory traffic of kernels per allocation. Host threads count into their span cache
// (memory_access.hpp) and add to the allocation when a span leaves the cache or a block ends.
#pragma once
#include <vector>

#include "memory_access.hpp"
#include "sim/harness_api.h"

namespace sim::memory {

void flush_span(CachedSpan& cached);               // adds its counts to its allocation and empties it
void reset_traffic();                              // while no kernel runs
std::vector<harness::Traffic> labelled_traffic();  // of live allocations with a label

}  // namespace sim::memory
