// Puzzle 1 · Row softmax — version 1: clear.
// The spec is in the stub, 01_row_softmax.cu; the walk-through is the puzzle's docs page.
//
// One block of 256 threads per row. Each thread loads its 64 values of the row into registers once,
// so x is read once and y written once. Then three steps, each a block-wide reduction or a map over the
// registers: m = the row's max, s = the sum of exp(x - m), y = exp(x - m) / s.
#include <cuda_runtime.h>

#include <cmath>

constexpr int kThreads = 256;
constexpr int kPerThread = 64;  // 256 threads x 64 values = 16384 columns, the longest row

// Each group of `lanes` lanes (32: the whole warp) gets the max (or the sum) of the group's values, in
// every lane: a butterfly of shuffles.
__device__ float warp_reduce(float v, bool is_max, int lanes = 32) {
  for (int offset = lanes / 2; offset > 0; offset /= 2) {
    const float other = __shfl_xor_sync(0xffffffffu, v, offset);
    v = is_max ? fmaxf(v, other) : v + other;
  }
  return v;
}

// Every thread of the block gets the max (or the sum) of all the block's values.
__device__ float block_reduce(float v, bool is_max) {
  constexpr int kWarps = kThreads / 32;
  __shared__ float per_warp[kWarps];
  v = warp_reduce(v, is_max);                                 // each warp on its own ...
  if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = v;  // ... posts one value ...
  __syncthreads();
  v = warp_reduce(per_warp[threadIdx.x % kWarps], is_max, kWarps);  // ... and every 8 lanes reduce the 8
  __syncthreads();  // per_warp is reused by the next call: wait until every warp has read it
  return v;
}

__global__ void row_softmax_kernel(const float* x, float* y, int cols) {
  const size_t row = static_cast<size_t>(blockIdx.x) * cols;  // block b computes row b

  // Load: thread t holds columns t, t + 256, t + 512, ... (neighbouring threads read neighbouring
  // floats: coalesced). -inf pads past the end of the row: it changes neither the max nor the sum.
  float v[kPerThread], m = -INFINITY;
#pragma unroll  // a fully unrolled loop keeps v[] in registers
  for (int i = 0; i < kPerThread; ++i) {
    const int c = threadIdx.x + i * kThreads;
    v[i] = c < cols ? x[row + c] : -INFINITY;
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
  for (int i = 0; i < kPerThread; ++i)  // 3. normalize
    if (threadIdx.x + i * kThreads < cols) y[row + threadIdx.x + i * kThreads] = v[i] / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  row_softmax_kernel<<<rows, kThreads>>>(x, y, cols);  // one block per row
}
