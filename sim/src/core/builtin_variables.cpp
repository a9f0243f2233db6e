// threadIdx, blockIdx, blockDim and gridDim (device_launch_parameters.h).
#include <cstdio>
#include <cstdlib>

#include "core/context.hpp"
#include "device_launch_parameters.h"

namespace sim {
namespace {

const ThreadState& reading_thread(const char* variable) {
  const ThreadState* t = current_thread();
  if (!t) {
    std::fprintf(stderr, "[sim] %s read outside a kernel\n", variable);
    std::abort();
  }
  return *t;
}

}  // namespace

uint3 block_index() noexcept {
  return reading_thread("blockIdx").block->block_idx;
}
dim3 block_dimensions() noexcept {
  return reading_thread("blockDim").block->block_dim;
}
dim3 grid_dimensions() noexcept {
  return reading_thread("gridDim").block->grid_dim;
}

}  // namespace sim
