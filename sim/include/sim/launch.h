// What `kern<<<grid, block, shared, stream>>>(args);` becomes after sim/translate:
//   ::sim::launch(::sim::LaunchConfig(grid, block, shared, stream), "kern", [=]() { kern(args); });
// The body runs once per simulated thread; the launch returns when every block has finished.
#pragma once
#include <cstddef>
#include <source_location>
#include <type_traits>

#include "driver_types.h"
#include "vector_types.h"

namespace sim {

struct LaunchConfig {
  LaunchConfig(dim3 grid_size, dim3 block_size, size_t shared_bytes = 0, cudaStream_t queue = nullptr,
               std::source_location call_site = std::source_location::current())
      : grid(grid_size), block(block_size), shared(shared_bytes), stream(queue), where(call_site) {}
  dim3 grid, block;
  size_t shared;  // dynamic shared memory per block, in bytes
  cudaStream_t stream;
  std::source_location where;  // the launch in the learner's file
};

using KernelBody = void (*)(const void* closure);

// `closure` holds the kernel's arguments (`closure_bytes` of them), which every simulated thread reads.
void launch_kernel(const LaunchConfig& config, const char* kernel, KernelBody body, const void* closure,
                   size_t closure_bytes);

template <class F>
void launch(const LaunchConfig& config, const char* kernel, F&& body) {
  using Closure = std::remove_reference_t<F>;
  launch_kernel(
      config, kernel, [](const void* closure) { (*static_cast<const Closure*>(closure))(); }, &body,
      sizeof(Closure));
}

}  // namespace sim
