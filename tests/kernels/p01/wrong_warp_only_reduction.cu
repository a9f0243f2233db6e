// expect: failed
// expect-diagnosis: rows_sum_too_large
// expect-sim-cases: 3x1000
// Bug: max and sum are reduced within each warp only: each warp normalizes its own columns, so a row of
// several warps sums to (number of warps) instead of 1.
#include "reduce.cuh"

__global__ void softmax_per_warp(const float* x, float* y, int cols) {
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, in[c]);
  m = warp_max(m);  // missing: combine the warps
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(in[c] - m);
  s = warp_sum(s);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[static_cast<size_t>(blockIdx.x) * cols + c] = expf(in[c] - m) / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_per_warp<<<rows, 256>>>(x, y, cols);
}
