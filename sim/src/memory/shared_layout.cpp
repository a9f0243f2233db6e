#include "memory/shared_layout.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/device_limits.hpp"
#include "memory/checker.hpp"

namespace sim::memory {

constinit SharedLayout shared_layout;

namespace {

constexpr size_t kDefaultLimit = device::kSharedPerBlock;  // unless the kernel opts in to more
constexpr size_t kOptInLimit = device::kSharedPerBlockOptin;
constexpr size_t kStaticLimit = device::kSharedPerBlock;  // nvcc refuses more static __shared__
constexpr size_t kLeadingRedZone = 16 << 10;

// Large enough to catch an index error of a row or so, small enough to keep the arena compact.
size_t red_zone_after(size_t bytes) {
  return std::clamp(round_up(bytes, 16), size_t{256}, size_t{16} << 10);
}

[[noreturn]] void arena_exhausted(const SharedSite& site) {
  std::fprintf(stderr,
               "sim: __shared__ %s (line %d) does not fit: the block's shared variables exceed %zu bytes\n",
               site.name, site.line, SharedLayout::kArenaBytes);
  std::abort();
}

std::string bytes_text(size_t n) {
  return std::to_string(n) + " bytes";
}

// Empty when the block fits.
std::string too_large_reason(const char* kernel, size_t static_bytes, size_t dynamic_bytes,
                             size_t dynamic_limit) {
  const size_t total = static_bytes + dynamic_bytes;
  const std::string needs = "the block needs " + bytes_text(total) + " of shared memory (" +
                            std::to_string(static_bytes) + " static + " + std::to_string(dynamic_bytes) +
                            " dynamic), ";
  if (static_bytes > kStaticLimit)
    return "static __shared__ variables take " + bytes_text(static_bytes) + ", above the " +
           bytes_text(kStaticLimit) + " nvcc allows; use extern __shared__ with a dynamic size instead";
  if (total > kOptInLimit)
    return needs + "above the " + bytes_text(kOptInLimit) + " a block can have on this GPU";
  if (dynamic_limit > kDefaultLimit && dynamic_bytes > dynamic_limit)
    return "the launch asks for " + bytes_text(dynamic_bytes) +
           " of dynamic shared memory, above the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize (" +
           bytes_text(dynamic_limit) + "); raise the attribute";
  if (dynamic_limit <= kDefaultLimit && total > kDefaultLimit)
    return needs + "above the default limit of " + bytes_text(kDefaultLimit) +
           " per block; before the launch call cudaFuncSetAttribute(" + (*kernel ? kernel : "kernel") +
           ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + std::to_string(dynamic_bytes) + ") (up to " +
           bytes_text(kOptInLimit - static_bytes) + ")";
  return "";
}

}  // namespace

bool SharedLayout::LaunchKey::operator==(const LaunchKey& other) const {
  return kernel == other.kernel && where.line() == other.where.line() &&
         where.column() == other.where.column() &&
         std::strcmp(where.file_name(), other.where.file_name()) == 0 &&
         dynamic_bytes == other.dynamic_bytes && dynamic_limit == other.dynamic_limit;
}

bool SharedLayout::enter_block(const BlockState& block, size_t dynamic_bytes, size_t dynamic_limit) {
  const LaunchInfo* launch = block.launch;
  const LaunchKey key{launch ? launch->kernel : "", launch ? launch->where : std::source_location{},
                      dynamic_bytes, dynamic_limit};
  const uint64_t blocks = uint64_t{block.grid_dim.x} * block.grid_dim.y * block.grid_dim.z;
  std::lock_guard lock(mutex_);
  // The launch identity cannot tell two launches of one kernel from one call site apart, but
  // those have the same layout; counting blocks separates them anyway.
  if (!(key == key_) || blocks_begun_ >= blocks_in_launch_) start_launch(key, blocks);
  ++blocks_begun_;
  return fits_or_report(Where{key.where.file_name(), static_cast<int>(key.where.line())});
}

void SharedLayout::start_launch(const LaunchKey& key, uint64_t blocks) {
  const size_t count = count_.load(std::memory_order_relaxed);
  for (size_t i = 0; i < count; ++i)
    variable_of_site_[variables_[i].site->slot].store(0, std::memory_order_relaxed);
  count_.store(0, std::memory_order_release);
  key_ = key;
  blocks_in_launch_ = blocks;
  blocks_begun_ = 0;
  static_bytes_ = 0;
  dynamic_ = {nullptr, kLeadingRedZone, key.dynamic_bytes};
  next_offset_ = round_up(kLeadingRedZone + key.dynamic_bytes + red_zone_after(key.dynamic_bytes), 256);
}

size_t SharedLayout::variable_of(const SharedSite& site, size_t size, size_t align, uintptr_t pc) {
  std::atomic_ref<int> slot_of_site(site.slot);
  int slot = slot_of_site.load(std::memory_order_acquire);
  if (slot < 0) {
    const int fresh = sites_.fetch_add(1, std::memory_order_relaxed);
    if (fresh >= static_cast<int>(kMaxSites)) arena_exhausted(site);
    slot = slot_of_site.compare_exchange_strong(slot, fresh, std::memory_order_acq_rel) ? fresh : slot;
  }
  if (const size_t placed = variable_of_site_[slot].load(std::memory_order_acquire)) return placed - 1;

  std::lock_guard lock(mutex_);
  if (const size_t placed = variable_of_site_[slot].load(std::memory_order_relaxed)) return placed - 1;
  const size_t index = count_.load(std::memory_order_relaxed);
  const size_t offset = round_up(next_offset_, std::max<size_t>(align, 16));
  if (index == kMaxVariables || offset + size + red_zone_after(size) > kArenaBytes) arena_exhausted(site);
  variables_[index] = {&site, offset, size};
  next_offset_ = offset + size + red_zone_after(size);
  static_bytes_ = round_up(static_bytes_, align) + size;
  count_.store(index + 1, std::memory_order_release);
  variable_of_site_[slot].store(index + 1, std::memory_order_release);
  fits_or_report(Where{nullptr, 0, pc});
  return index;
}

bool SharedLayout::fits_or_report(Where where) {
  const std::string reason =
      too_large_reason(key_.kernel, static_bytes_, key_.dynamic_bytes, key_.dynamic_limit);
  if (reason.empty()) return true;
  report(Severity::error, "shared_too_large", where, reason);
  return false;
}

size_t SharedLayout::static_bytes() const {
  std::lock_guard lock(mutex_);
  return static_bytes_;
}

}  // namespace sim::memory
