// The results of a thread's wgmma.mma_async until its wgmma.wait_group covers their group: kept aside and
// written to the accumulator registers by that wait. Meanwhile the registers are watched (core/context.hpp,
// WatchedRange): the thread's own read or write of one is `wgmma_accumulator_pending`. A later wgmma into
// the same registers (a chain of k-slices, no wait between) starts from the pending results, as the tensor
// cores order wgmma on the same accumulators.
#pragma once
#include "execution/block_runner.hpp"
#include "ptx/async_block.hpp"

namespace sim::ptx {

// What a wgmma issued now adds to: the latest pending result for the register, else its value. `place`:
// the register's place among the wgmma's accumulators, where a chain on the same registers has it.
float accumulator_input(const SimThread& thread, const float* reg, size_t place, float value);
// Keeps the results of a wgmma of `thread` (its group: the thread's commits so far).
void record_pending(SimThread& thread, PendingWgmma pending);

}  // namespace sim::ptx
