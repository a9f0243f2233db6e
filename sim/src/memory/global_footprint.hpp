// The sectors of each allocation that any simulated block of a launch touched: what a launch must move
// between DRAM and L2 at least, whatever the caches do. Only while work::counting().
#pragma once
#include <cstdint>

namespace sim::memory {

// A sector new to its block (global_requests.cpp): marks it for the launch.
void mark_launch_sector(uintptr_t address, bool store);

struct Footprint {
  uint64_t load_bytes = 0, store_bytes = 0;
};
// The launch's footprint with the simulated blocks' touches multiplied by `scale` (blocks in the grid
// per block simulated), each allocation's at most its size; forgets the marks.
Footprint take_launch_footprint(double scale);

}  // namespace sim::memory
