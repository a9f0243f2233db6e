// Race tracking for global memory. Per 4-byte word of every allocation, one access of the running
// launch: its last write, or else its first read, in one 64-bit word (so that host threads never see
// half of one), and the place that made it. Two accesses of one launch to the same bytes race when at
// least one writes, not both are atomic (or volatile), neither is a plain read of what atomics update (a
// guess that atomicCAS then checks, as in CUDA's own atomicCAS loops), and nothing orders them: threads of
// one block in different warps with no __syncthreads() between them, or threads of different blocks with no
// release and acquire between them (memory/ordering.hpp). Lanes of one warp are left to the shared-
// memory checks' rules and not compared here. Keeping one access per word can only miss races: every
// race reported really happened.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/context.hpp"
#include "diagnostics/report.hpp"
#include "memory/access_kind.hpp"
#include "memory/heap.hpp"
#include "memory/ordering.hpp"

namespace sim::memory {

// A strong access is an atomic or a volatile one: two strong accesses never race.
enum class GlobalKind : uint8_t { read, write, strong_read, strong_write };

// block serial (BlockState::epoch >> 32, low 32 bits) | barrier interval (low 16 bits) << 32 |
// thread << 48 | kind << 58 | bytes of the word << 60. 0: no access.
class GlobalAccess {
 public:
  GlobalAccess() = default;
  explicit GlobalAccess(uint64_t bits) : bits_(bits) {}
  GlobalAccess(uint64_t epoch, unsigned thread, GlobalKind kind, unsigned bytes)
      : bits_(static_cast<uint32_t>(epoch >> 32) | uint64_t{static_cast<uint16_t>(epoch)} << 32 |
              uint64_t{thread & 0x3FF} << 48 | uint64_t{static_cast<uint8_t>(kind)} << 58 |
              uint64_t{bytes & 0xF} << 60) {}

  uint64_t bits() const { return bits_; }
  uint32_t serial() const { return static_cast<uint32_t>(bits_); }
  uint16_t interval() const { return static_cast<uint16_t>(bits_ >> 32); }
  unsigned thread() const { return (bits_ >> 48) & 0x3FF; }
  GlobalKind kind() const { return static_cast<GlobalKind>((bits_ >> 58) & 3); }
  unsigned bytes() const { return static_cast<unsigned>(bits_ >> 60); }
  bool writes() const { return kind() == GlobalKind::write || kind() == GlobalKind::strong_write; }
  bool strong() const { return kind() == GlobalKind::strong_read || kind() == GlobalKind::strong_write; }
  // Made by a block that started at or after `first_epoch` (the running launch's).
  bool in_launch(uint64_t first_epoch) const {
    return bits_ != 0 &&
           static_cast<uint32_t>(serial() - static_cast<uint32_t>(first_epoch >> 32)) < 0x80000000u;
  }

 private:
  uint64_t bits_ = 0;
};

struct GlobalShadowWord {
  uint64_t access;  // a GlobalAccess
  uint64_t origin;  // where it was made: a PC, or a file pointer | line << 48 (runtime calls: atomics)
};

// Shadow for an allocation of `bytes`: a freed allocation's, kept for reuse (its words are of launches
// that ended), or else reserved address space, which costs nothing until touched.
GlobalShadowWord* make_global_shadow(size_t bytes);
void free_global_shadow(GlobalShadowWord* shadow);

// Decides whether two accesses of different blocks, or of different warps of one block in one barrier
// interval, race, and reports it if they do.
[[gnu::cold, gnu::noinline]] void resolve_global_conflict(const Allocation& allocation,
                                                          const GlobalShadowWord& earlier, GlobalAccess now,
                                                          const ThreadState& self, uintptr_t address,
                                                          size_t bytes, Access kind, const Where& where);

inline uint64_t origin_of(const Where& where) {
  if (where.pc) return where.pc;
  const uint64_t line = where.line > 0 && where.line < 0xFFFF ? static_cast<uint64_t>(where.line) : 0xFFFF;
  return reinterpret_cast<uintptr_t>(where.file) | line << 48;
}

inline GlobalKind global_kind(Access kind, bool strong) {
  if (kind == Access::atomic) return GlobalKind::strong_write;
  if (kind == Access::read) return strong ? GlobalKind::strong_read : GlobalKind::read;
  return strong ? GlobalKind::strong_write : GlobalKind::write;
}

// Records an access of a kernel's thread to [address, address + bytes) of `allocation`'s buffer and
// reports a race with the word's earlier access. Inline: it runs for every global-memory access.
inline void track_global_access(const Allocation& allocation, uintptr_t address, size_t bytes, Access kind,
                                bool strong, const Where& where) {
  GlobalShadowWord* shadow = allocation.race_shadow;
  const ThreadState* self = current_thread();
  if (!shadow || !self || (allocation.harness_input && kind == Access::read)) return;
  const uint64_t epoch = self->block->epoch, first_epoch = launch_epoch_floor.load(std::memory_order_relaxed);
  const GlobalKind how = global_kind(kind, strong);
  const uintptr_t offset = address - allocation.data.lo;
  for (uintptr_t word = offset / 4; word <= (offset + bytes - 1) / 4; ++word) {
    const uintptr_t lo = offset > word * 4 ? offset - word * 4 : 0;
    const uintptr_t hi = offset + bytes < word * 4 + 4 ? offset + bytes - word * 4 : 4;
    const GlobalAccess now(epoch, self->linear, how, ((1u << (hi - lo)) - 1) << lo);
    GlobalShadowWord& slot = shadow[word];
    const GlobalAccess earlier(__atomic_load_n(&slot.access, __ATOMIC_RELAXED));
    if (earlier.in_launch(first_epoch)) {
      if (!now.writes() && !earlier.writes()) continue;  // the first read stays
      const bool same_block = earlier.serial() == now.serial();
      const bool may_race = (earlier.bytes() & now.bytes()) && !(earlier.strong() && now.strong()) &&
                            !(earlier.strong() && !now.writes()) && !(now.strong() && !earlier.writes()) &&
                            (!same_block || (earlier.interval() == now.interval() &&
                                             earlier.thread() / 32 != now.thread() / 32));
      if (may_race) resolve_global_conflict(allocation, slot, now, *self, address, bytes, kind, where);
      if (!now.writes()) continue;
    }
    __atomic_store_n(&slot.origin, origin_of(where), __ATOMIC_RELAXED);
    __atomic_store_n(&slot.access, now.bits(), __ATOMIC_RELAXED);
  }
}

}  // namespace sim::memory
