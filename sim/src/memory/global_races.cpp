#include "memory/global_races.hpp"

#include <sys/mman.h>

#include <mutex>
#include <unordered_map>
#include <vector>

#include "diagnostics/describe.hpp"
#include "diagnostics/store.hpp"
#include "memory/describe.hpp"

namespace sim::memory {
namespace {

size_t shadow_bytes(size_t bytes) {
  return (bytes + 3) / 4 * sizeof(GlobalShadowWord);
}

Where where_of_origin(uint64_t origin) {
  if (origin >> 48 == 0) return Where{nullptr, 0, static_cast<uintptr_t>(origin)};
  return Where{reinterpret_cast<const char*>(origin & ((uint64_t{1} << 48) - 1)),
               static_cast<int>(origin >> 48)};
}

std::string thread_words(unsigned linear, const dim3& dim) {
  return "thread (" + std::to_string(linear % dim.x) + "," + std::to_string(linear / dim.x % dim.y) + "," +
         std::to_string(linear / (dim.x * dim.y)) + ")";
}

// Freed shadows, kept for the allocations that follow (a check allocates and frees every case's buffers):
// their pages are already faulted in and cleared, which on a virtual machine costs more than simulating
// much of a case, and the words they hold are of launches that ended, which in_launch() ignores.
class ShadowPool {
 public:
  // The smallest kept region of at least `bytes`, else fresh address space; nullptr if none is left.
  GlobalShadowWord* take(size_t bytes) {
    std::lock_guard lock(mutex_);
    auto best = free_.end();
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->bytes >= bytes && (best == free_.end() || it->bytes < best->bytes)) best = it;
    }
    Region region{nullptr, bytes};
    if (best != free_.end()) {
      region = *best;
      free_.erase(best);
      kept_ -= region.bytes;
    } else {
      region.shadow = static_cast<GlobalShadowWord*>(reserve_address_space(bytes));
      if (!region.shadow) return nullptr;
      // Large buffers: a fault per 2 MiB instead of per 4 KiB when their shadow is first touched.
      if (bytes >= (size_t{2} << 20)) madvise(region.shadow, bytes, MADV_HUGEPAGE);
    }
    in_use_[region.shadow] = region.bytes;
    return region.shadow;
  }
  // Keeps the region for reuse, or unmaps it beyond kMostKept bytes kept.
  void give_back(GlobalShadowWord* shadow) {
    std::lock_guard lock(mutex_);
    const auto used = in_use_.find(shadow);
    const size_t bytes = used->second;
    in_use_.erase(used);
    if (kept_ + bytes > kMostKept) {
      munmap(shadow, bytes);
      return;
    }
    free_.push_back({shadow, bytes});
    kept_ += bytes;
  }

 private:
  static constexpr size_t kMostKept = size_t{1} << 30;
  struct Region {
    GlobalShadowWord* shadow;
    size_t bytes;
  };
  std::mutex mutex_;
  std::vector<Region> free_;
  std::unordered_map<GlobalShadowWord*, size_t> in_use_;
  size_t kept_ = 0;
};

ShadowPool& shadow_pool() {
  static ShadowPool* pool = new ShadowPool;  // never destroyed: kernels of a crashing child may still run
  return *pool;
}

}  // namespace

GlobalShadowWord* make_global_shadow(size_t bytes) {
  return shadow_pool().take(shadow_bytes(bytes));
}

void free_global_shadow(GlobalShadowWord* shadow) {
  if (shadow) shadow_pool().give_back(shadow);
}

void resolve_global_conflict(const Allocation& allocation, const GlobalShadowWord& earlier_word,
                             GlobalAccess now, const ThreadState& self, uintptr_t address, size_t bytes,
                             Access kind, const Where& where) {
  const GlobalAccess earlier(__atomic_load_n(&earlier_word.access, __ATOMIC_RELAXED));
  const bool same_block = earlier.serial() == now.serial();
  if (!same_block && acquired_before(earlier.serial(), earlier.interval(), earlier.thread(), self)) return;
  if (count_repeat("global_race", where)) return;
  static constexpr const char* kNow[] = {"reads", "writes", "atomically updates"};
  static constexpr const char* kEarlier[] = {"read", "wrote", "read (volatile)",
                                             "wrote (atomically or volatile)"};
  const dim3& dim = self.block->block_dim;
  std::string message = "global-memory race on " +
                        element_at(name_of(allocation).in_index, allocation.buffer.lo, address, bytes) +
                        ": " + thread_words(self.linear, dim) + " " + kNow[static_cast<int>(kind)] +
                        " it here, " + thread_words(earlier.thread(), dim) +
                        (same_block ? " of the same block " : " of another block ") +
                        kEarlier[static_cast<int>(earlier.kind())] + " it at {related}, and ";
  if (same_block) {
    message += "no __syncthreads() separates them";
  } else {
    message +=
        "nothing orders the two blocks: blocks share no barrier, so two of them may touch one element only "
        "with atomics (atomicAdd to accumulate), or after a flag handed over through memory (a "
        "__threadfence() before an atomic store that the other block waits for)";
  }
  report_related(Severity::error, "global_race", where,
                 where_of_origin(__atomic_load_n(&earlier_word.origin, __ATOMIC_RELAXED)),
                 std::move(message));
}

}  // namespace sim::memory
