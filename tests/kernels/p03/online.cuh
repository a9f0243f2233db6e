// Correct pieces of an online softmax shared by the puzzle-3 test kernels, so that each kernel shows
// only its own bug: the (m, s) pair, its update and combine rules, and a block-per-row kernel body
// that takes the update and the combine under test. `warp_m` and `warp_s` are __shared__ float[32]
// arrays of the calling kernel: the kernel under test owns its shared memory.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

// The max of some values and the sum of exp(value - m) over them; (-inf, 0) is the empty set.
struct MaxSum {
  float m = -INFINITY;
  float s = 0.0f;
};

// s, a sum relative to `from`, made relative to `to >= from`; a -inf `from` means an empty sum.
__device__ inline float rescale(float s, float from, float to) {
  return from == -INFINITY ? 0.0f : s * expf(from - to);
}

__device__ inline MaxSum online_update(MaxSum a, float x) {
  const float m = fmaxf(a.m, x);
  if (m == -INFINITY) return a;  // only -inf so far
  return {m, rescale(a.s, a.m, m) + expf(x - m)};
}

__device__ inline MaxSum online_combine(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  return {m, rescale(a.s, a.m, m) + rescale(b.s, b.m, m)};
}

template <class Combine>
__device__ MaxSum warp_combine(MaxSum v, Combine combine) {
  for (int o = 16; o > 0; o /= 2)
    v = combine(v, MaxSum{__shfl_xor_sync(0xffffffffu, v.m, o), __shfl_xor_sync(0xffffffffu, v.s, o)});
  return v;
}

// Every thread of the block gets the combination of all threads' pairs.
template <class Combine>
__device__ MaxSum block_combine(MaxSum v, float* warp_m, float* warp_s, Combine combine) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  v = warp_combine(v, combine);
  if (lane == 0) {
    warp_m[warp] = v.m;
    warp_s[warp] = v.s;
  }
  __syncthreads();
  return warp_combine(lane < warps ? MaxSum{warp_m[lane], warp_s[lane]} : MaxSum{}, combine);
}

// Pass 1 and the combine: the pair of one row, in every thread of the block.
template <class Update, class Combine>
__device__ MaxSum row_max_sum(const float* in, int cols, float* warp_m, float* warp_s, Update update,
                              Combine combine) {
  MaxSum acc;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) acc = update(acc, in[c]);
  return block_combine(acc, warp_m, warp_s, combine);
}

// Pass 2: y = exp(x - m) / s over one row.
__device__ inline void write_softmax_row(const float* in, float* out, int cols, MaxSum row) {
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = expf(in[c] - row.m) / row.s;
}

// Block b computes row b of x into y with the update and the combine under test.
template <class Update, class Combine>
__device__ void online_softmax_block_row(const float* x, float* y, int cols, float* warp_m, float* warp_s,
                                         Update update, Combine combine) {
  const size_t row = static_cast<size_t>(blockIdx.x) * cols;
  write_softmax_row(x + row, y + row, cols, row_max_sum(x + row, cols, warp_m, warp_s, update, combine));
}
