// threadIdx, blockIdx, blockDim, gridDim and warpSize of the simulated thread that reads them.
#pragma once
#include "vector_types.h"

namespace sim {
namespace detail {
// The running simulated thread's threadIdx ((0, 0, 0) in host code), set at every switch between simulated
// threads. initial-exec: the variable lives in the program, not in the kernel's shared object.
extern constinit thread_local uint3 running_thread_idx [[gnu::tls_model("initial-exec")]];
}  // namespace detail

// A local call reading the variable above: kernels read threadIdx in their loops, and through the
// program's exported function it took 5% of puzzle 1's simulation. Not instrumented: the variable is the
// simulator's, not memory the kernel reaches.
[[gnu::no_sanitize_thread]] inline uint3 thread_index() noexcept {
  return detail::running_thread_idx;
}
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
