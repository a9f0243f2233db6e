// Correct passes of a block-per-row tiled softmax, shared by the puzzle-2 test kernels so that each
// kernel shows only its own bug. `in` is the block's row of x; `scratch` is a __shared__ float[32] of
// the calling kernel (the kernel under test owns its shared memory). Every thread of the block must call
// them, and every thread gets the result.
#pragma once
#include "../p01/reduce.cuh"

// Pass 1: the max of the whole row.
__device__ inline float row_max(const float* in, int cols, float* scratch) {
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, in[c]);
  return block_max(m, scratch);
}

// Pass 2: the sum of exp(in - m) over the whole row.
__device__ inline float row_exp_sum(const float* in, int cols, float m, float* scratch) {
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(in[c] - m);
  return block_sum(s, scratch);
}
