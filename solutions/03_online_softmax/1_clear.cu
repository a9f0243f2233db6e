// Puzzle 3 · Online softmax — version 1: clear.
// The spec is in the stub, 03_online_softmax.cu; the walk-through is the puzzle's docs page.
//
// One block of 1024 threads per row, x read twice:
//   pass 1  each thread folds its columns into a running pair (m, s): m the max so far, s the sum of
//           exp(x - m) so far; the block then combines the threads' pairs into the row's pair;
//   pass 2  y = exp(x - m) / s.
// A bigger max m' makes every earlier term exp(x - m) too large by exp(m' - m): s is rescaled by
// exp(m - m') and the new terms added. Two pairs combine the same way, in any order.
#include <cuda_runtime.h>

#include <cmath>

constexpr int kThreads = 1024;

struct MaxSum {
  float m;  // the max of the values seen so far (-inf: none yet)
  float s;  // the sum of exp(value - m) over them
};

// s, a sum relative to max `from`, made relative to max `to` (>= from). While a part has seen only -inf,
// from = to = -inf and exp(from - to) would be NaN; its sum is 0 anyway.
__device__ float rescale(float s, float from, float to) {
  return from == -INFINITY ? 0.0f : s * expf(from - to);
}

// The pair of two sets of values together: two threads' pairs, or a pair and one value x, whose own
// pair is (x, exp(x - x) = 1).
__device__ MaxSum combine(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  return {m, rescale(a.s, a.m, m) + rescale(b.s, b.m, m)};
}

// Every lane of the warp gets the combination of the 32 lanes' pairs (a butterfly of shuffles).
__device__ MaxSum warp_combine(MaxSum v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = combine(v, {__shfl_xor_sync(0xffffffffu, v.m, offset), __shfl_xor_sync(0xffffffffu, v.s, offset)});
  return v;
}

__global__ void online_softmax_kernel(const float* x, float* y, int cols) {
  __shared__ float warp_m[kThreads / 32], warp_s[kThreads / 32];
  const float* row_x = x + static_cast<size_t>(blockIdx.x) * cols;  // block b computes row b
  float* row_y = y + static_cast<size_t>(blockIdx.x) * cols;

  // Pass 1: thread t folds columns t, t + 1024, ... into its pair, one value at a time.
  MaxSum acc{-INFINITY, 0.0f};
  for (int c = threadIdx.x; c < cols; c += kThreads) acc = combine(acc, {row_x[c], 1.0f});

  // The row's pair: each warp combines its lanes' pairs, then every warp combines the 32 warps' pairs.
  acc = warp_combine(acc);
  if (threadIdx.x % 32 == 0) {
    warp_m[threadIdx.x / 32] = acc.m;
    warp_s[threadIdx.x / 32] = acc.s;
  }
  __syncthreads();
  const MaxSum row = warp_combine({warp_m[threadIdx.x % 32], warp_s[threadIdx.x % 32]});

  // Pass 2: y = exp(x - m) / s.
  for (int c = threadIdx.x; c < cols; c += kThreads) row_y[c] = expf(row_x[c] - row.m) / row.s;
}

void online_softmax(const float* x, float* y, int rows, int cols) {
  online_softmax_kernel<<<rows, kThreads>>>(x, y, cols);  // one block per row
}
