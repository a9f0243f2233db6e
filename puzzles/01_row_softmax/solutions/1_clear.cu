// Puzzle 1 · Row softmax — version 1: clear.
// The spec is in the stub, 01_row_softmax.cu; the walk-through is the puzzle's docs page.
//
// One block of 1024 threads per row. Each thread loads its 16 values of the row into registers once,
// so x is read once and y written once. Then three steps, each a block-wide reduction or a map over the
// registers: m = the row's max, s = the sum of exp(x - m), y = exp(x - m) / s.
#include <cuda_runtime.h>

#include <cmath>

constexpr int kThreads = 1024;
constexpr int kPerThread = 16;  // 1024 threads x 16 values = 16384 columns, the longest row

// a + b, or max(a, b): the two reductions the softmax needs.
__device__ float combine(float a, float b, bool is_max) {
  return is_max ? fmaxf(a, b) : a + b;
}

// Every thread of the block gets the max (or the sum) of all the block's values.
__device__ float block_reduce(float v, bool is_max) {
  __shared__ float per_warp[kThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset /= 2)  // each warp: a butterfly, all 32 lanes get the result
    v = combine(v, __shfl_xor_sync(0xffffffffu, v, offset), is_max);
  if (lane == 0) per_warp[warp] = v;  // one value per warp into shared memory
  __syncthreads();
  v = per_warp[lane];  // every warp reduces the 32 warps' values (32 = kThreads / 32)
  for (int offset = 16; offset > 0; offset /= 2)
    v = combine(v, __shfl_xor_sync(0xffffffffu, v, offset), is_max);
  __syncthreads();  // per_warp is reused by the next call: wait until every warp has read it
  return v;
}

__global__ void row_softmax_kernel(const float* x, float* y, int cols) {
  const float* row_x = x + static_cast<size_t>(blockIdx.x) * cols;  // block b computes row b
  float* row_y = y + static_cast<size_t>(blockIdx.x) * cols;

  // Load: thread t holds columns t, t + 1024, t + 2048, ... (neighbouring threads read neighbouring
  // floats: coalesced). -inf pads past the end of the row: it changes neither the max nor the sum.
  float v[kPerThread];
  float m = -INFINITY;
#pragma unroll  // a fully unrolled loop keeps v[] in registers
  for (int i = 0; i < kPerThread; ++i) {
    const int c = threadIdx.x + i * kThreads;
    v[i] = c < cols ? row_x[c] : -INFINITY;
    m = fmaxf(m, v[i]);  // 1. the max of this thread's values ...
  }
  m = block_reduce(m, true);  // ... then of the whole row

  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    v[i] = expf(v[i] - m);  // 2. <= 1: subtracting the max is what keeps exp from overflowing
    s += v[i];
  }
  s = block_reduce(s, false);

#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int c = threadIdx.x + i * kThreads;
    if (c < cols) row_y[c] = v[i] / s;  // 3. normalize
  }
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  row_softmax_kernel<<<rows, kThreads>>>(x, y, cols);  // one block per row
}
