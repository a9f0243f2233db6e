// threadIdx, blockIdx, blockDim, gridDim and warpSize of the simulated thread that reads them.
#pragma once
#include "vector_types.h"

namespace sim {
// gnu::const: the value is fixed for the life of the simulated thread (a fiber that never migrates
// between host threads), so the compiler may reuse it within a function.
[[gnu::const]] uint3 thread_index() noexcept;
[[gnu::const]] uint3 block_index() noexcept;
[[gnu::const]] dim3 block_dimensions() noexcept;
[[gnu::const]] dim3 grid_dimensions() noexcept;
}  // namespace sim

#define threadIdx (::sim::thread_index())
#define blockIdx (::sim::block_index())
#define blockDim (::sim::block_dimensions())
#define gridDim (::sim::grid_dimensions())

inline constexpr int warpSize = 32;
