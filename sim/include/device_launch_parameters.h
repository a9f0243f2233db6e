// threadIdx, blockIdx, blockDim, gridDim and warpSize of the simulated thread that reads them.
#pragma once
#include "vector_types.h"

// The running simulated thread's threadIdx ((0, 0, 0) in host code), set at every switch between simulated
// threads. initial-exec: the variable lives in the program, not in the kernel's shared object.
extern "C" constinit thread_local uint3 sim_running_thread_idx [[gnu::tls_model("initial-exec")]];

namespace sim {
// Kernels read threadIdx in their loops: through the program's exported function it took 5-8% of puzzle
// 1's simulation. The read is made where the compiler's instrumentation of the kernel's memory accesses
// does not see it (the variable is the simulator's, not memory the kernel reaches): an asm statement on
// x86-64 Linux, which the compiler may also hoist out of a loop (a simulated thread never changes host
// thread, so the value it reads never changes), else a local call.
#if defined(__x86_64__) && defined(__linux__)
inline uint3 thread_index() noexcept {
  // x and y as one 8-byte value: the kernel's copies of the result (kept in memory: -fno-tree-sra) then
  // load what one store wrote, which the processor forwards; two 4-byte stores read back as 8 bytes wait
  // for the stores to reach the cache (a third of a small kernel's time, on stack lines it had evicted).
  unsigned long xy, offset;
  unsigned z;
  asm("movq sim_running_thread_idx@gottpoff(%%rip), %2\n\t"
      "movq %%fs:(%2), %0\n\t"
      "movl %%fs:8(%2), %1"
      : "=r"(xy), "=r"(z), "=&r"(offset));
  uint3 index;
  __builtin_memcpy(&index, &xy, sizeof xy);
  index.z = z;
  return index;
}
#else
[[gnu::no_sanitize_thread]] inline uint3 thread_index() noexcept {
  return sim_running_thread_idx;
}
#endif
// gnu::const: the value is fixed for the life of the simulated thread (a fiber that never migrates
// between host threads), so the compiler may reuse it within a function.
[[gnu::const]] uint3 block_index() noexcept;
[[gnu::const]] dim3 block_dimensions() noexcept;
[[gnu::const]] dim3 grid_dimensions() noexcept;
}  // namespace sim

#define threadIdx (::sim::thread_index())
#define blockIdx (::sim::block_index())
#define blockDim (::sim::block_dimensions())
#define gridDim (::sim::grid_dimensions())

inline constexpr int warpSize = 32;
