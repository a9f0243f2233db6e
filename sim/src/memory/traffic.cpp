#include "memory/traffic.hpp"

#include "memory/heap.hpp"

namespace sim::memory {

void reset_traffic() {
  for (Allocation* allocation : device_heap.all()) {
    allocation->bytes_read.store(0, std::memory_order_relaxed);
    allocation->bytes_written.store(0, std::memory_order_relaxed);
  }
}

std::vector<harness::Traffic> labelled_traffic() {
  std::vector<harness::Traffic> traffic;
  for (const Allocation* allocation : device_heap.all()) {
    if (allocation->label.empty() || allocation->freed.load(std::memory_order_relaxed)) continue;
    traffic.push_back({allocation->label, allocation->buffer.size(),
                       allocation->bytes_read.load(std::memory_order_relaxed),
                       allocation->bytes_written.load(std::memory_order_relaxed)});
  }
  return traffic;
}

}  // namespace sim::memory
