#include "memory/global_footprint.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <mutex>
#include <vector>

#include "memory/heap.hpp"

namespace sim::memory {
namespace {

constexpr uintptr_t kFootprintSectorBytes = 32;

// One bit per sector of an allocation's extent, for loads and for stores: reserved address space, so
// only the pages of sectors touched cost memory.
struct SectorMarks {
  const Allocation* allocation = nullptr;
  size_t words = 0;
  std::atomic<uint64_t>* loads = nullptr;
  std::atomic<uint64_t>* stores = nullptr;
};

std::mutex footprint_mutex;
std::vector<SectorMarks*> launch_marks;  // for the allocations touched in this launch
std::atomic<uint64_t> footprints_taken{0};
// This host thread's last allocation, valid while no launch has been taken since it was looked up.
constinit thread_local SectorMarks* last_marks = nullptr;
constinit thread_local uint64_t last_marks_launch = 0;

SectorMarks* marks_for(const Allocation& allocation) {
  std::lock_guard lock(footprint_mutex);
  for (SectorMarks* m : launch_marks)
    if (m->allocation == &allocation) return m;
  auto* m = new SectorMarks;
  m->allocation = &allocation;
  m->words = (allocation.extent.size() / kFootprintSectorBytes + 63) / 64;
  m->loads = static_cast<std::atomic<uint64_t>*>(reserve_address_space(m->words * 8));
  m->stores = static_cast<std::atomic<uint64_t>*>(reserve_address_space(m->words * 8));
  if (!m->loads || !m->stores) {  // no address space left: the footprint is then unknown (0)
    delete m;
    return nullptr;
  }
  launch_marks.push_back(m);
  return m;
}

uint64_t marked_sectors(const std::atomic<uint64_t>* bits, size_t words) {
  uint64_t n = 0;
  for (size_t i = 0; i < words; ++i) n += std::popcount(bits[i].load(std::memory_order_relaxed));
  return n;
}

}  // namespace

void mark_launch_sector(uintptr_t address, bool store) {
  const uint64_t launch = footprints_taken.load(std::memory_order_relaxed);
  SectorMarks* m = last_marks_launch == launch ? last_marks : nullptr;
  if (!m || !m->allocation->extent.contains(address, 1)) {
    const Allocation* allocation = device_heap.find(address);
    if (!allocation || !(m = marks_for(*allocation))) return;
    last_marks = m;
    last_marks_launch = launch;
  }
  const uintptr_t sector = (address - m->allocation->extent.lo) / kFootprintSectorBytes;
  (store ? m->stores : m->loads)[sector / 64].fetch_or(uint64_t{1} << sector % 64, std::memory_order_relaxed);
}

Footprint take_launch_footprint(double scale) {
  std::lock_guard lock(footprint_mutex);
  Footprint footprint;
  for (SectorMarks* m : launch_marks) {
    const double most = static_cast<double>(m->allocation->buffer.size());
    const auto bytes = [&](const std::atomic<uint64_t>* bits) {
      return static_cast<uint64_t>(
          std::min(most, marked_sectors(bits, m->words) * kFootprintSectorBytes * scale));
    };
    footprint.load_bytes += bytes(m->loads);
    footprint.store_bytes += bytes(m->stores);
    munmap(m->loads, m->words * 8);
    munmap(m->stores, m->words * 8);
    delete m;
  }
  launch_marks.clear();
  footprints_taken.fetch_add(1, std::memory_order_relaxed);
  return footprint;
}

}  // namespace sim::memory
