// Correct block reductions shared by the puzzle-1 test kernels, so that each kernel shows only its
// own bug. `scratch` is a __shared__ float[32] of the calling kernel (the simulator translates only
// the checked file itself, so headers hold no __shared__ declarations).
#pragma once
#include <cuda_runtime.h>

#include <cmath>

__device__ inline float warp_max(float v) {
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__device__ inline float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ inline float block_max(float v, float* scratch) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  v = warp_max(v);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = warp_max(lane < warps ? scratch[lane] : -INFINITY);
  __syncthreads();
  return v;
}

__device__ inline float block_sum(float v, float* scratch) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  v = warp_sum(v);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = warp_sum(lane < warps ? scratch[lane] : 0.0f);
  __syncthreads();
  return v;
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
