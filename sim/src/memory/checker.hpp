// What the scheduler, the launch and the runtime API ask of the memory checker.
#pragma once
#include <cstddef>
#include <source_location>

#include "core/context.hpp"
#include "driver_types.h"

namespace sim::memory {

// Global memory of the simulated device (what cudaMemGetInfo reports as total); cudaMalloc fails
// with cudaErrorMemoryAllocation beyond it.
inline constexpr size_t kDeviceMemoryBytes = size_t{16} << 30;

// `value` rounded up to a multiple of `multiple` (the heap's and the shared layout's alignment).
inline constexpr size_t round_up(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// Per block, on the host thread that runs it: give the block fresh, poisoned shared memory with a
// dynamic region of `dynamic_bytes`, and set block.shared. Returns false (after reporting) if the
// static + dynamic shared memory would exceed the kernel's limit. `dynamic_limit` is the kernel's
// cudaFuncAttributeMaxDynamicSharedMemorySize: up to 48 KiB, static + dynamic must fit in 48 KiB;
// above it, dynamic must fit in it and static + dynamic in the 227 KiB a block can opt in to.
bool begin_block(BlockState& block, size_t dynamic_bytes, size_t dynamic_limit);
void end_block(BlockState& block);

// Static shared memory used so far by the current launch (grows as declarations are reached).
size_t static_shared_bytes();

// Atomics are implemented in the runtime (not instrumented): they report their access here so that
// bounds, alignment and race checks see them. Every atomic counts as a read-modify-write. The operation
// itself then runs under a memory::OrderedAtomic (memory/ordering.hpp).
void on_atomic(const void* addr, size_t size, std::source_location where);

// A block's first BlockState::epoch, process-unique: 2^32 barrier releases of room per block.
uint64_t next_block_epoch();
// Called before the first block of each launch starts: global-memory race tracking starts afresh.
void begin_launch();

// A fault that stops the kernel on a GPU and leaves its context unusable, every later call failing with
// it (a sticky error): a misaligned access, __trap(). The first one is kept; cudaSuccess if none.
void note_kernel_fault(cudaError_t error) noexcept;
cudaError_t kernel_fault() noexcept;
void clear_kernel_fault() noexcept;  // cudaDeviceReset

// __threadfence() in the current thread (memory/ordering.hpp).
void on_threadfence();

}  // namespace sim::memory
