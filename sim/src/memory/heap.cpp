#include "memory/heap.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

#include "memory/checker.hpp"
#include "memory/global_races.hpp"

namespace sim::memory {

constinit DeviceHeap device_heap;

namespace {

constexpr size_t kMaxAllocations = size_t{1} << 20;
// Addresses are never reused, so the arena must outlast every allocation a child makes: reserve as
// much as the system allows, up to 1 TiB (untouched pages cost nothing).
constexpr size_t kLargestArena = size_t{1} << 40;
constexpr size_t kSmallestArena = size_t{1} << 30;

}  // namespace

void* reserve_address_space(size_t bytes) noexcept {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

bool DeviceHeap::reserve_arena() {
  auto** table = static_cast<Allocation**>(reserve_address_space(kMaxAllocations * sizeof(Allocation*)));
  if (!table) return false;
  for (size_t bytes = kLargestArena; bytes >= kSmallestArena; bytes /= 2) {
    if (void* arena = reserve_address_space(bytes)) {
      table_.store(table, std::memory_order_release);
      next_ = reinterpret_cast<uintptr_t>(arena);
      lo_.store(next_, std::memory_order_relaxed);
      size_.store(bytes, std::memory_order_relaxed);
      return true;
    }
  }
  munmap(table, kMaxAllocations * sizeof(Allocation*));
  return false;
}

Allocation* DeviceHeap::find(uintptr_t address) const noexcept {
  Allocation* const* table = table_.load(std::memory_order_acquire);
  const size_t count = count_.load(std::memory_order_acquire);
  Allocation* const* after = std::upper_bound(
      table, table + count, address, [](uintptr_t a, const Allocation* b) { return a < b->extent.lo; });
  if (after == table) return nullptr;
  Allocation* candidate = after[-1];
  return address < candidate->extent.hi ? candidate : nullptr;
}

Allocation* DeviceHeap::nearest(uintptr_t address) const noexcept {
  Allocation* const* table = table_.load(std::memory_order_acquire);
  const size_t count = count_.load(std::memory_order_acquire);
  Allocation* const* after = std::upper_bound(
      table, table + count, address, [](uintptr_t a, const Allocation* b) { return a < b->extent.lo; });
  auto distance = [&](const Allocation* a) {
    return address < a->buffer.lo ? a->buffer.lo - address : address - a->buffer.hi;
  };
  Allocation* best = after != table ? after[-1] : nullptr;
  if (after != table + count && (!best || distance(*after) < distance(best))) best = *after;
  return best;
}

Allocation* DeviceHeap::allocate(size_t bytes, const char* file, int line) {
  std::lock_guard lock(mutex_);
  if (bytes > kDeviceMemoryBytes - live_bytes_) return nullptr;
  if (size_.load(std::memory_order_relaxed) == 0 && !reserve_arena()) return nullptr;
  const size_t count = count_.load(std::memory_order_relaxed);
  const size_t rounded = round_up(bytes, kMinRedZone);
  const size_t red_zone = std::max(kMinRedZone, rounded);
  const uintptr_t start = next_;
  const uintptr_t end = start + red_zone + rounded + red_zone;
  if (count == kMaxAllocations ||
      end > lo_.load(std::memory_order_relaxed) + size_.load(std::memory_order_relaxed))
    return nullptr;

  auto* allocation = new Allocation;
  allocation->extent = {start, end};
  allocation->data = {start + red_zone, start + red_zone + bytes};
  allocation->buffer = allocation->data;
  allocation->file = file;
  allocation->line = line;
  allocation->launcher = launcher_;
  allocation->race_shadow = track_races_ ? make_global_shadow(bytes) : nullptr;
  table_.load(std::memory_order_relaxed)[count] = allocation;
  count_.store(count + 1, std::memory_order_release);

  next_ = end;
  live_bytes_ += bytes;
  if (launcher_ != 0) {
    scratch_held_ += bytes;
    scratch_peak_ = std::max(scratch_peak_, scratch_held_);
    scratch_allocated_live_ += bytes;
    scratch_allocated_peak_ = std::max(scratch_allocated_peak_, scratch_allocated_live_);
  }
  return allocation;
}

void DeviceHeap::release(Allocation& allocation, const char* file, int line) {
  std::lock_guard lock(mutex_);
  allocation.freed.store(true, std::memory_order_relaxed);
  allocation.freed_file = file;
  allocation.freed_line = line;
  live_bytes_ -= allocation.data.size();
  if (allocation.launcher != 0) {  // any launcher's: an earlier call's is held by this call too
    scratch_held_ -= allocation.data.size();
    if (allocation.launcher == launcher_) scratch_allocated_live_ -= allocation.data.size();
  }
  // The pages go back to the system; the addresses stay reserved and attributed (use after free).
  madvise(reinterpret_cast<void*>(allocation.data.lo), allocation.data.size(), MADV_DONTNEED);
  free_global_shadow(std::exchange(allocation.race_shadow, nullptr));
}

void DeviceHeap::set_race_tracking(bool on) {
  std::lock_guard lock(mutex_);
  track_races_ = on;
}

size_t DeviceHeap::live_bytes() const {
  std::lock_guard lock(mutex_);
  return live_bytes_;
}

AddressRange DeviceHeap::used() const {
  std::lock_guard lock(mutex_);
  const uintptr_t lo = lo_.load(std::memory_order_relaxed);
  return {lo, next_ > lo ? next_ : lo};
}

std::vector<Allocation*> DeviceHeap::all() const {
  std::lock_guard lock(mutex_);
  Allocation* const* table = table_.load(std::memory_order_relaxed);
  return {table, table + count_.load(std::memory_order_relaxed)};
}

void DeviceHeap::begin_scratch() {
  std::lock_guard lock(mutex_);
  launcher_ = ++launchers_started_;
  // A workspace an earlier call allocated and kept is held by this call too (scratch_held_ carries it, as
  // on the GPU: harness/child/backend_gpu.cpp); what this call allocates itself is counted apart, for the
  // budget.
  scratch_peak_ = 0;
  scratch_allocated_live_ = scratch_allocated_peak_ = 0;
}

void DeviceHeap::note_launch() {
  std::lock_guard lock(mutex_);
  if (launcher_ != 0) scratch_peak_ = std::max(scratch_peak_, scratch_held_);
}

void DeviceHeap::end_scratch() {
  std::lock_guard lock(mutex_);
  scratch_peak_ = std::max(scratch_peak_, scratch_held_);
  launcher_ = 0;
}

uint64_t DeviceHeap::scratch_live_bytes() const {
  std::lock_guard lock(mutex_);
  return scratch_held_;
}

uint64_t DeviceHeap::scratch_peak_bytes() const {
  std::lock_guard lock(mutex_);
  return scratch_peak_;
}

uint64_t DeviceHeap::scratch_allocated_peak_bytes() const {
  std::lock_guard lock(mutex_);
  return scratch_allocated_peak_;
}

std::string size_words(size_t bytes) {
  static constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB"};
  int unit = 0;
  while (unit < 3 && bytes >= 1024 && bytes % 1024 == 0) bytes /= 1024, ++unit;
  return std::to_string(bytes) + " " + kUnits[unit];
}

namespace {

struct FailedAllocation {
  std::atomic<size_t> bytes{0};
  char words[512] = {};
};
constinit FailedAllocation failed_allocation;

}  // namespace

void note_failed_allocation(size_t bytes, const char* file, int line) {
  const char* slash = file ? std::strrchr(file, '/') : nullptr;
  failed_allocation.bytes.store(0, std::memory_order_relaxed);
  std::snprintf(failed_allocation.words, sizeof failed_allocation.words,
                "the cudaMalloc of %s at %s:%d failed (out of memory) and left its pointer null",
                size_words(bytes).c_str(),
                slash  ? slash + 1
                : file ? file
                       : "?",
                line);
  failed_allocation.bytes.store(bytes, std::memory_order_release);
}

const char* failed_allocation_under(uintptr_t address) noexcept {
  return address < failed_allocation.bytes.load(std::memory_order_acquire) ? failed_allocation.words
                                                                           : nullptr;
}

}  // namespace sim::memory
