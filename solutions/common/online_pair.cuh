// The online softmax's (max, sum) pair and its rules, shared by puzzle 3's version 2 (its per-row kernel)
// and split_long_rows.cuh (which puzzle 4's version 2 uses too); the walk-through is puzzle 3's docs page.
//
// The pair: m, the max of some values, and s = sum of exp(x - m) over them. A bigger value rescales s:
// s = s * exp(m_old - m_new) + exp(x - m_new). Two pairs combine the same way, in any order.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

namespace online {

constexpr int kWarp = 32;
constexpr int kUnroll = 8;  // loads in flight per thread, and one rescale per 8 values instead of per value

// The max of some values and the sum of exp(value - m) over them. (-inf, 0) is the empty set.
struct MaxSum {
  float m = -INFINITY;
  float s = 0.0f;
};

// exp(from - to) * s, with from <= to: what a sum relative to `from` becomes relative to `to`.
// While nothing but -inf has been seen, from == to == -inf and exp(-inf - -inf) would be NaN.
__device__ float rescale(float s, float from, float to) {
  return from == -INFINITY ? 0.0f : s * __expf(from - to);
}

// The pair of the union of two sets of values. Commutative and associative, so any tree works.
__device__ MaxSum combine(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  return {m, rescale(a.s, a.m, m) + rescale(b.s, b.m, m)};
}

__device__ MaxSum warp_combine(MaxSum v) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2)
    v = combine(v, {__shfl_xor_sync(0xffffffffu, v.m, offset), __shfl_xor_sync(0xffffffffu, v.s, offset)});
  return v;
}

// Every thread of the block gets the combination of all threads' pairs. Safe to call again right away:
// the last barrier keeps warp_m and warp_s until every warp has read them.
__device__ MaxSum block_combine(MaxSum v) {
  __shared__ float warp_m[kWarp], warp_s[kWarp];
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  const int warps = (blockDim.x + kWarp - 1) / kWarp;

  v = warp_combine(v);
  if (lane == 0) {
    warp_m[warp] = v.m;
    warp_s[warp] = v.s;
  }
  __syncthreads();
  const MaxSum block = warp_combine(lane < warps ? MaxSum{warp_m[lane], warp_s[lane]} : MaxSum{});
  __syncthreads();
  return block;
}

// One group of kUnroll columns, base + i * blockDim.x of the cols in `x`, into v and folded into the
// running pair: kUnroll loads in flight at once. -inf pads the tail: it changes neither max nor sum.
__device__ MaxSum read_group(const float* x, int base, int cols, float (&v)[kUnroll], MaxSum acc) {
  float group_max = -INFINITY;
#pragma unroll
  for (int i = 0; i < kUnroll; ++i) {
    const int c = base + i * blockDim.x;
    v[i] = c < cols ? x[c] : -INFINITY;
    group_max = fmaxf(group_max, v[i]);
  }
  const float m = fmaxf(acc.m, group_max);
  if (m == -INFINITY) return acc;  // only -inf so far: (-inf, 0) is still right
  float s = rescale(acc.s, acc.m, m);
#pragma unroll
  for (int i = 0; i < kUnroll; ++i) s += __expf(v[i] - m);
  return {m, s};
}

}  // namespace online
