// expect: failed
// expect-diagnosis: online_missing_rescale
// expect-sim-cases: 3x257 3x1023
// Bug: the running sum is not rescaled when the max grows: terms added under an old, smaller max keep
// their larger exp(x - m_old), so s is too large and every y of the row too small by the same factor.
#include "online.cuh"

__global__ void softmax_missing_rescale(const float* x, float* y, int cols) {
  __shared__ float warp_m[32], warp_s[32];
  const auto update_without_rescale = [](MaxSum a, float v) {
    const float m = fmaxf(a.m, v);
    if (m == -INFINITY) return a;
    return MaxSum{m, a.s + expf(v - m)};  // should be a.s * exp(a.m - m) + exp(v - m)
  };
  online_softmax_block_row(x, y, cols, warp_m, warp_s, update_without_rescale, online_combine);
}

void online_softmax(const float* x, float* y, int rows, int cols) {
  softmax_missing_rescale<<<rows, 256>>>(x, y, cols);
}
