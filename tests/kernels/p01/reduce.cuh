// Correct block reductions shared by the puzzle-1 test kernels, so that each kernel shows only its
// own bug. `scratch` is a __shared__ float[32] of the calling kernel: the kernel under test owns its
// shared memory.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};

template <class Op>
__device__ float warp_reduce(float v, Op op) {
  for (int o = 16; o > 0; o /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

template <class Op>
__device__ float block_reduce(float v, float* scratch, float identity, Op op) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  v = warp_reduce(v, op);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = warp_reduce(lane < warps ? scratch[lane] : identity, op);
  __syncthreads();
  return v;
}

__device__ inline float warp_max(float v) {
  return warp_reduce(v, MaxOp{});
}
__device__ inline float warp_sum(float v) {
  return warp_reduce(v, SumOp{});
}
__device__ inline float block_max(float v, float* scratch) {
  return block_reduce(v, scratch, -INFINITY, MaxOp{});
}
__device__ inline float block_sum(float v, float* scratch) {
  return block_reduce(v, scratch, 0.0f, SumOp{});
}

// The three passes of a block-per-row softmax (max, sum of exp, write), x read three times.
// `row_max` and `row_sum` are the block reductions under test: a kernel passes a broken one to show
// its bug and the right ones everywhere else.
template <class RowMax, class RowSum>
__device__ void softmax_row(const float* in, float* out, int cols, RowMax row_max, RowSum row_sum) {
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, in[c]);
  m = row_max(m);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(in[c] - m);
  s = row_sum(s);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = expf(in[c] - m) / s;
}

// Block b computes row b of x into y, with `block_sum_under_test(v, partial)` as its sum reduction.
// `scratch` and `partial` are __shared__ float[32] arrays of the calling kernel.
template <class BlockSum>
__device__ void softmax_block_row(const float* x, float* y, int cols, float* scratch, float* partial,
                                  BlockSum block_sum_under_test) {
  const size_t row = static_cast<size_t>(blockIdx.x) * cols;
  softmax_row(
      x + row, y + row, cols, [&](float v) { return block_max(v, scratch); },
      [&](float v) { return block_sum_under_test(v, partial); });
}
