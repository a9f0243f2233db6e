// Puzzle 1 · Row softmax — version 2: a block sized to the row.
// Over 1_clear.cu: 16 values per thread (not 64) and just enough warps to cover the row (32 threads for
// 512 columns, 1024 for 16384), so short rows leave no thread idle, fewer registers let more blocks
// share an SM, and long rows get more threads; one division per row (y = e * (1 / s)); the block
// reductions come from block_reduce.cuh, shared with puzzle 2.
// The spec is in the stub, 01_row_softmax.cu; the walk-through is the puzzle's docs page.
//
// One block per row. Every thread keeps its share of the row in registers, so x is read once and
// y written once: the kernel moves the minimum 2 * rows * cols * 4 bytes. Three steps, each a
// block-wide reduction or a map over the registers:
//   1. m = max over the row          (warp shuffles, then one value per warp through shared memory)
//   2. s = sum of exp(x - m)         (the same reduction with +)
//   3. y = exp(x - m) / s
#include <cuda_runtime.h>

#include <cmath>

#include "block_reduce.cuh"

namespace {

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

}  // namespace

void row_softmax(const float* x, float* y, int rows, int cols) {
  static_assert(kMaxCols <= kPerThread * 1024, "a row must fit in one block's registers");
  // Just enough whole warps that kPerThread values per thread cover the row.
  const int per_thread_threads = (cols + kPerThread - 1) / kPerThread;
  const int threads = (per_thread_threads + kWarp - 1) / kWarp * kWarp;
  row_softmax_kernel<<<rows, threads>>>(x, y, cols);
}
