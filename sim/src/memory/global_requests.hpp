// Global memory as the speed estimate sees it (only while work::counting()): the lanes' accesses
// grouped into warp requests and the 32-byte sectors each request touches (coalescing), and per block,
// how far back each sector was last touched (its reuse distance, which the cache model compares with
// the L1 and L2 capacities). Lanes are grouped as banks.hpp groups shared accesses: by (warp, instruction,
// dynamic instance since the last __syncthreads()). During an estimate every global access hands the
// host thread to the block's next thread (BlockControl::yield_thread), so the warps advance together
// as on a GPU: a group is complete within a round, and the order of touches is the GPU's, not one lane's
// whole loop before the next lane's.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/context.hpp"
#include "memory/access_kind.hpp"

namespace sim::memory {

// Reuse distances are binned by std::bit_width(sectors touched by the block in between): bin b holds
// distances in [2^(b-1), 2^b) sectors of 32 bytes.
inline constexpr size_t kReuseBins = 40;

struct GlobalCounts {
  uint64_t load_requests = 0, store_requests = 0;  // warp-level instructions (atomics count as stores)
  uint64_t load_sectors = 0, store_sectors = 0;    // distinct sectors per request, summed
  uint64_t lines = 0;                              // distinct 128-byte lines per request, summed
  uint64_t load_bytes = 0, store_bytes = 0;        // the bytes the lanes asked for
  bool spins = false;                              // a lane polled global memory: it waits for another block
  std::array<uint64_t, kReuseBins> load_reuse{};   // loaded sectors the block had touched before
  uint64_t first_load_sectors = 0;                 // loaded sectors new to their block
  uint64_t first_store_sectors = 0;                // written sectors new to their block
};

// A volatile load (memory/tsan_abi.cpp): one of global memory that the lane made before polls a flag that
// another block sets, which marks the launch (GlobalCounts::spins).
void note_volatile_load(const void* pointer);

// One lane's access (memory/access.hpp calls it for every valid global access while counting).
void record_global_access(ThreadState& thread, uintptr_t address, size_t bytes, Access kind, uintptr_t pc);
// A bulk copy (cp.async.bulk.tensor): the copy engine moves it between L2 and shared memory, not a warp's
// instruction through L1, so its rows add sectors (and reuse) but no lines, and the copy is one request
// the issuing thread does not wait for: the wait is the mbarrier's, which a pipeline overlaps.
void count_bulk_row(uintptr_t address, size_t bytes, bool store);
void count_bulk_copy(bool store);
void settle_global_groups();  // at __syncthreads()
void begin_global_block(unsigned threads);
void end_global_block();  // settles, and adds the block's counts to the launch's
GlobalCounts take_global_counts();

}  // namespace sim::memory
