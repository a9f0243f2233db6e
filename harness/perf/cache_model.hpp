// Where a launch's loads are served from (L1, L2 or DRAM) and what moves between DRAM, L2 and the SMs,
// from the simulator's reuse distances: a sector touched again by its block after `d` other sectors stays
// in L1 while d times the blocks an SM holds fits in the L1 left beside shared memory, and in L2 while d
// times the blocks running at once fits in L2. Sectors new to their block that another block loaded
// before are L2 hits while the launch's whole footprint fits in L2, and partly hits beyond.
#pragma once
#include "gpu_table.hpp"
#include "launch_work.hpp"
#include "occupancy.hpp"

namespace puzzle::perf {

struct MemoryTraffic {
  double dram_read_bytes = 0, dram_write_bytes = 0;
  double l2_bytes = 0;  // between the SMs and L2: loads that miss L1, and every store
  // Loaded sectors of the whole grid by where they come from.
  double l1_hits = 0, l2_hits = 0, dram_loads = 0;
  double load_latency_cycles = 0;  // of an average load request
};

MemoryTraffic memory_traffic(const GpuSpec& gpu, const LaunchWork& work, const Occupancy& occupancy,
                             double concurrent_blocks);

}  // namespace puzzle::perf
