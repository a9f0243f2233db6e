// Fiber stacks of one host thread, reused from block to block. Each stack has an inaccessible guard
// region below it, so an overflow faults (and is reported as one) instead of corrupting a neighbour.
#pragma once
#include <cstddef>
#include <cstdint>

namespace sim {

class StackPool {
 public:
  static constexpr size_t kStackBytes = size_t{128} << 10;
  static constexpr size_t kGuardBytes = size_t{64} << 10;
  static constexpr unsigned kMaxStacks = 1024;  // the most threads a block can have

  StackPool();  // reserves the address space; stacks become usable as they are first needed
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  // The lowest address of stack i (kStackBytes long), for i < kMaxStacks.
  void* stack(unsigned i);

 private:
  static constexpr size_t kSlotBytes = kGuardBytes + kStackBytes;
  char* region_;
  unsigned usable_ = 0;  // stacks [0, usable_) are readable and writable
};

// Whether `address` lies in a guard region of this host thread's fiber stacks; async-signal-safe.
bool in_fiber_stack_guard(uintptr_t address) noexcept;

}  // namespace sim
