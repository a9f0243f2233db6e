#include "occupancy.hpp"

#include <algorithm>
#include <cmath>

namespace puzzle::perf {

Occupancy occupancy(const GpuSpec& gpu, uint64_t threads_per_block, uint64_t shared_bytes, int registers) {
  const int warps = static_cast<int>((threads_per_block + 31) / 32);
  // Registers are allocated per warp in units of 256 (CUDA occupancy calculator).
  const int per_warp = (std::max(registers, 1) * 32 + 255) / 256 * 256;
  const double shared = static_cast<double>(shared_bytes) + gpu.shared_reserved;
  struct Bound {
    int blocks;
    const char* what;
  };
  const Bound bounds[] = {
      {gpu.max_blocks, "blocks per SM"},
      {gpu.max_warps / std::max(warps, 1), "threads"},
      {gpu.registers / (per_warp * std::max(warps, 1)), "registers"},
      {shared_bytes == 0 ? gpu.max_blocks : static_cast<int>(gpu.shared_bytes_max / shared), "shared memory"},
  };
  const Bound* least = std::min_element(std::begin(bounds), std::end(bounds),
                                        [](auto& a, auto& b) { return a.blocks < b.blocks; });
  Occupancy o;
  o.blocks_per_sm = std::max(1, least->blocks);
  o.limited_by = least->what;
  o.warps_per_sm = o.blocks_per_sm * warps;
  o.shared_per_sm = o.blocks_per_sm * (shared_bytes ? shared : 0);
  return o;
}

}  // namespace puzzle::perf
