// Block-wide reductions: every thread of a block gets the max (or the sum) of all threads' values. Used
// by puzzle 1's version 2 and puzzle 2's version 2; a clear solution carries its own, to stand alone.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

namespace reduce {

constexpr int kWarp = 32;

struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Sum {
  __device__ float operator()(float a, float b) const { return a + b; }
};

// After the loop every lane holds the reduction of all 32 lanes (butterfly pattern).
template <class Op>
__device__ float warp_reduce(float v, Op op) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// Every thread of the block gets the reduction of all threads' v.
template <class Op>
__device__ float block_reduce(float v, Op op, float identity) {
  __shared__ float per_warp[kWarp];
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  const int warps = (blockDim.x + kWarp - 1) / kWarp;

  v = warp_reduce(v, op);
  if (lane == 0) per_warp[warp] = v;
  __syncthreads();
  v = warp_reduce(lane < warps ? per_warp[lane] : identity, op);
  __syncthreads();  // per_warp is reused by the next reduction
  return v;
}

}  // namespace reduce
