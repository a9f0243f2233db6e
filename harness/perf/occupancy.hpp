// How many blocks of a kernel an SM holds at once, and which resource stops it at that many.
#pragma once
#include <cstdint>
#include <string>

#include "gpu_table.hpp"

namespace puzzle::perf {

struct Occupancy {
  int blocks_per_sm = 1;
  int warps_per_sm = 1;      // resident warps when the SM holds blocks_per_sm blocks
  std::string limited_by;    // "threads", "shared memory", "registers", "blocks per SM"
  double shared_per_sm = 0;  // bytes of shared memory those blocks take (with the driver's reserve)
};

// At least one block: a launch the GPU refuses fails before the estimate.
Occupancy occupancy(const GpuSpec& gpu, uint64_t threads_per_block, uint64_t shared_bytes, int registers);

}  // namespace puzzle::perf
