// Puzzle 1's version 2 kernel: one block per row, the row in registers (2_row_in_registers.cu says how).
// Shared by versions 2 and 3: version 3 keeps it for rows of more than 1024 columns.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

#include "../common/block_reduce.cuh"

namespace row_in_registers {

using namespace reduce;  // Max, Sum, block_reduce, kWarp

constexpr int kMaxCols = 16384;
constexpr int kPerThread = 16;  // values each thread holds: cols <= kPerThread * 1024 threads

__global__ void row_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
  const float* row_x = x + static_cast<size_t>(blockIdx.x) * cols;
  float* row_y = y + static_cast<size_t>(blockIdx.x) * cols;

  // Thread t owns columns t, t + blockDim.x, t + 2 * blockDim.x, ...: each load is coalesced.
  float v[kPerThread];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int c = threadIdx.x + i * blockDim.x;
    v[i] = c < cols ? row_x[c] : -INFINITY;  // -inf pads the tail: it changes neither max nor sum
    m = fmaxf(m, v[i]);
  }
  m = block_reduce(m, Max{}, -INFINITY);

  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    v[i] = expf(v[i] - m);  // <= 1: subtracting the max is what keeps exp from overflowing
    s += v[i];
  }
  s = block_reduce(s, Sum{}, 0.0f);

  const float inv_s = 1.0f / s;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int c = threadIdx.x + i * blockDim.x;
    if (c < cols) row_y[c] = v[i] * inv_s;
  }
}

// One block per row, just enough whole warps that kPerThread values per thread cover the row.
inline void launch(const float* x, float* y, int rows, int cols) {
  static_assert(kMaxCols <= kPerThread * 1024, "a row must fit in one block's registers");
  const int per_thread_threads = (cols + kPerThread - 1) / kPerThread;
  const int threads = (per_thread_threads + kWarp - 1) / kWarp * kWarp;
  row_softmax_kernel<<<rows, threads>>>(x, y, cols);
}

}  // namespace row_in_registers
