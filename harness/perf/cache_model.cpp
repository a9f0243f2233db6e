#include "cache_model.hpp"

#include <algorithm>
#include <cmath>

namespace puzzle::perf {
namespace {

constexpr double kSector = 32;
}  // namespace

double l1_bytes(const GpuSpec& gpu, const Occupancy& occupancy) {
  return std::max(gpu.l1_shared_bytes - occupancy.shared_per_sm, 16.0 * 1024);
}

MemoryTraffic memory_traffic(const GpuSpec& gpu, const LaunchWork& work, const Occupancy& occupancy,
                             double concurrent_blocks, const ModelConstants& k) {
  const double scale = work.scale();
  const double l1 = l1_bytes(gpu, occupancy);
  const double l2_bytes = gpu.l2_bytes * k.usable_l2;
  const double first_bytes = work.first_load_sectors * scale * kSector;  // the blocks' own footprints, summed
  const double sharing =
      work.footprint_load_bytes > 0 ? std::max(1.0, first_bytes / work.footprint_load_bytes) : 1;
  const double working_sets = std::max(1.0, concurrent_blocks / std::min(sharing, concurrent_blocks));
  MemoryTraffic t;
  double reused_from_dram = 0;
  for (size_t bin = 0; bin < work.load_reuse.size(); ++bin) {
    const double sectors = work.load_reuse[bin] * scale;
    if (sectors == 0) continue;
    // Bin b holds distances in [2^(b-1), 2^b) sectors: its middle, in bytes.
    const double distance = bin == 0 ? 0 : std::exp2(bin - 0.5) * kSector;
    if (distance * occupancy.blocks_per_sm < l1) {
      t.l1_hits += sectors;
    } else if (distance * working_sets < l2_bytes) {
      t.l2_hits += sectors;
    } else {
      reused_from_dram += sectors;
    }
  }
  // Sectors new to their block: the footprint comes from DRAM once; the rest another block loaded.
  const double shared_by_blocks = std::max(0.0, first_bytes - work.footprint_load_bytes);
  const double together = first_bytes / std::max<double>(work.blocks(), 1) * working_sets;
  const double shared_hit = together <= l2_bytes ? 1.0 : l2_bytes / together;
  t.l2_hits += shared_by_blocks * shared_hit / kSector;
  const double first_from_dram =
      work.footprint_load_bytes / kSector + shared_by_blocks * (1 - shared_hit) / kSector;
  t.dram_loads = first_from_dram + reused_from_dram;
  t.dram_read_bytes = t.dram_loads * kSector;
  t.dram_write_bytes = work.footprint_store_bytes;
  const double loads = t.l1_hits + t.l2_hits + t.dram_loads;
  t.l2_bytes = (loads - t.l1_hits + work.store_sectors * scale) * kSector;
  t.load_latency_cycles =
      loads > 0
          ? (t.l1_hits * k.l1_latency + t.l2_hits * k.l2_latency + t.dram_loads * k.dram_latency) / loads
          : 0;
  return t;
}

}  // namespace puzzle::perf
