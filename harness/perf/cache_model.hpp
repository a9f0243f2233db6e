// Where a launch's loads are served from (L1, L2 or DRAM) and what moves between DRAM, L2 and the SMs,
// from the simulator's reuse distances: a sector touched again by its block after `d` other sectors stays
// in L1 while d times the blocks an SM holds fits in the L1 left beside shared memory, and in L2 while d
// times the distinct working sets of the blocks running at once fits in L2. Blocks share data (attention's
// keys, a product's panels): `sharing`, the blocks that load each byte on average, divides the blocks
// running at once into that many fewer working sets (blocks that share data run near one another in launch
// order). Sectors new to their block that another block loaded are L2 hits while those working sets fit.
#pragma once
#include "gpu_table.hpp"
#include "launch_work.hpp"
#include "model_constants.hpp"
#include "occupancy.hpp"

namespace puzzle::perf {

struct MemoryTraffic {
  double dram_read_bytes = 0, dram_write_bytes = 0;
  double l2_bytes = 0;  // between the SMs and L2: loads that miss L1, and every store
  // Loaded sectors of the whole grid by where they come from.
  double l1_hits = 0, l2_hits = 0, dram_loads = 0;
  double load_latency_cycles = 0;  // of an average load request
};

// The L1 an SM has beside the shared memory of the blocks it holds.
double l1_bytes(const GpuSpec& gpu, const Occupancy& occupancy);

MemoryTraffic memory_traffic(const GpuSpec& gpu, const LaunchWork& work, const Occupancy& occupancy,
                             double concurrent_blocks, const ModelConstants& constants);

}  // namespace puzzle::perf
