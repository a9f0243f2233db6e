// Which accesses of one launch are ordered across blocks. Blocks share no barrier; what orders them is
// a flag handed over through memory: a thread publishes (a __threadfence() and then an atomic or a
// volatile store: a release) and a thread of another block observes it (an atomic or a volatile load:
// an acquire). Each such location keeps the release points published to it; an acquire copies them
// into the acquiring block. Acquires need no fence here, and any atomic counts: being lenient can only
// miss a race, never invent one.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>

#include "core/context.hpp"

namespace sim::memory {

// The running launch's first block epoch (memory/checker.hpp: begin_launch): accesses of blocks that
// started before it are ordered before it.
inline constinit std::atomic<uint64_t> launch_epoch_floor{0};

// A volatile access of the current thread to device memory at `address`, just before it happens.
void on_strong_access(uintptr_t address, bool writes);

// An atomic read-modify-write of the current thread at `address`, for as long as the object lives: the
// release of a fenced thread and the acquire of what the atomic observes are made together with the
// operation. Made before it and apart from it, as for a volatile access, a release and the operation of
// another block could fall between this thread's acquire and its operation: the operation then observed a
// value whose release it never acquired, and a last-block ticket was reported as a race.
class OrderedAtomic {
 public:
  explicit OrderedAtomic(const void* address);
  ~OrderedAtomic();
  OrderedAtomic(const OrderedAtomic&) = delete;
  OrderedAtomic& operator=(const OrderedAtomic&) = delete;

 private:
  const ThreadState* self_ = nullptr;
  uintptr_t address_ = 0;
  std::unique_lock<std::mutex> lock_;  // held while the operation runs, when there is something to order
};

// Whether an access of block `serial`'s thread `thread` in barrier interval `interval` (the low
// 16 bits of its BlockState::epoch), in this launch, happens before the current access of `now`.
bool acquired_before(uint32_t serial, uint16_t interval, unsigned thread, const ThreadState& now);

}  // namespace sim::memory
