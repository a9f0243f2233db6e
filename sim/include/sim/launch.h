// What `kern<<<grid, block, shared, stream>>>(args);` becomes after sim/translate
// (sim/translate/launch_rewrite.hpp): a launch_with_arguments, or a launch whose body evaluates the
// arguments itself. The body runs once per simulated thread; the launch returns when every block has
// finished.
#pragma once
#include <cstddef>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

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

// A launch whose arguments the host evaluated once (sim/translate/launch_rewrite.hpp): each simulated
// thread calls `body` with the copies, which lie beside it in the launch's parameters.
template <class Body, class... Args>
void launch_with_arguments(const LaunchConfig& config, const char* kernel, Body body, Args&&... args) {
  struct Parameters {
    Body body;
    std::tuple<std::decay_t<Args>...> arguments;
  };
  const Parameters parameters{body, {std::forward<Args>(args)...}};
  launch_kernel(
      config, kernel,
      [](const void* p) {
        const auto& self = *static_cast<const Parameters*>(p);
        std::apply(self.body, self.arguments);
      },
      &parameters, sizeof parameters);
}

// A lone `0` or `NULL` kernel argument: to CUDA a null pointer as much as a zero, whichever the parameter is.
struct ZeroArgument {
  template <class T>
  constexpr operator T() const {
    return T{};
  }
};
inline constexpr ZeroArgument zero_argument{};

template <class F>
void launch(const LaunchConfig& config, const char* kernel, F&& body) {
  using Closure = std::remove_reference_t<F>;
  launch_kernel(
      config, kernel, [](const void* closure) { (*static_cast<const Closure*>(closure))(); }, &body,
      sizeof(Closure));
}

}  // namespace sim
