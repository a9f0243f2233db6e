#include "cache_model.hpp"

#include <algorithm>
#include <cmath>

namespace puzzle::perf {
namespace {

constexpr double kSector = 32;
// Constants of the model (docs/simulator.md, "Speed"): the share of L2 that holds reused data (the
// H100's L2 is two partitions of 25 MB, and streaming data passes through it too), and the latencies of
// a load served by L1, L2 and DRAM in SM clocks, from published microbenchmarks of Hopper.
constexpr double kUsableL2 = 0.6;
constexpr double kL1Latency = 35, kL2Latency = 270, kDramLatency = 900;

}  // namespace

MemoryTraffic memory_traffic(const GpuSpec& gpu, const LaunchWork& work, const Occupancy& occupancy,
                             double concurrent_blocks) {
  const double scale = work.scale();
  const double l1_bytes = std::max(gpu.l1_shared_bytes - occupancy.shared_per_sm, 16.0 * 1024);
  const double l2_bytes = gpu.l2_bytes * kUsableL2;
  MemoryTraffic t;
  double reused_from_dram = 0;
  for (size_t bin = 0; bin < work.load_reuse.size(); ++bin) {
    const double sectors = work.load_reuse[bin] * scale;
    if (sectors == 0) continue;
    // Bin b holds distances in [2^(b-1), 2^b) sectors: its middle, in bytes.
    const double distance = bin == 0 ? 0 : std::exp2(bin - 0.5) * kSector;
    if (distance * occupancy.blocks_per_sm < l1_bytes) {
      t.l1_hits += sectors;
    } else if (distance * concurrent_blocks < l2_bytes) {
      t.l2_hits += sectors;
    } else {
      reused_from_dram += sectors;
    }
  }
  // Sectors new to their block: the footprint comes from DRAM once; the rest another block loaded.
  const double footprint = work.footprint_load_bytes + work.footprint_store_bytes;
  const double shared_by_blocks =
      std::max(0.0, work.first_load_sectors * scale * kSector - work.footprint_load_bytes);
  const double shared_hit = footprint <= l2_bytes ? 1.0 : l2_bytes / footprint;
  t.l2_hits += shared_by_blocks * shared_hit / kSector;
  const double first_from_dram =
      work.footprint_load_bytes / kSector + shared_by_blocks * (1 - shared_hit) / kSector;
  t.dram_loads = first_from_dram + reused_from_dram;
  t.dram_read_bytes = t.dram_loads * kSector;
  t.dram_write_bytes = work.footprint_store_bytes;
  const double loads = t.l1_hits + t.l2_hits + t.dram_loads;
  t.l2_bytes = (loads - t.l1_hits + work.store_sectors * scale) * kSector;
  t.load_latency_cycles =
      loads > 0 ? (t.l1_hits * kL1Latency + t.l2_hits * kL2Latency + t.dram_loads * kDramLatency) / loads : 0;
  return t;
}

}  // namespace puzzle::perf
