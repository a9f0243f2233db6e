// The online (max, sum) pair and the row loops shared by the puzzle-4 test kernels, so that each kernel
// shows only its own bug. A row is owned by a group of `lanes` consecutive threads (a power of two, at
// most 32); lane l of the group handles columns l, l + lanes, l + 2 * lanes, ...
#pragma once
#include <cuda_runtime.h>

#include <cmath>

struct Running {
  float m = -INFINITY;  // max so far
  float s = 0.0f;       // sum of exp(x - m) so far
};

// The pair of the union of two parts; when both saw only -inf, exp(-inf - (-inf)) would be NaN.
__device__ inline Running merge(Running a, Running b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__device__ inline Running lane_stats(const float* in, int cols, int lane, int lanes) {
  Running r;
  for (int c = lane; c < cols; c += lanes) r = merge(r, {in[c], 1.0f});
  return r;
}

// Butterfly over each group of `lanes` lanes; every lane of the warp must call it.
__device__ inline Running group_merge(Running r, int lanes) {
  for (int offset = lanes / 2; offset > 0; offset /= 2) {
    r = merge(r, {__shfl_xor_sync(0xffffffffu, r.m, offset, lanes),
                  __shfl_xor_sync(0xffffffffu, r.s, offset, lanes)});
  }
  return r;
}

__device__ inline void write_row(const float* in, float* out, int cols, int lane, int lanes, Running r) {
  for (int c = lane; c < cols; c += lanes) out[c] = expf(in[c] - r.m) / r.s;
}

// The fewest lanes (a power of two, at most a warp) that give each lane at most 4 columns of a row.
inline int lanes_for(int cols) {
  int lanes = 1;
  while (lanes < 32 && lanes * 4 < cols) lanes *= 2;
  return lanes;
}
