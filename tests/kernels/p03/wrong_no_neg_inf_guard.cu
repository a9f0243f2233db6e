// expect: failed
// expect-diagnosis: neg_inf_nan
// expect-sim-cases: neg_inf
// Bug: no guard for a running max that is still -inf. A thread whose first columns are all -inf
// computes exp(m - m_new) = exp(-inf - -inf) = NaN, and the NaN spreads to the whole row.
#include "online.cuh"

__global__ void softmax_no_neg_inf_guard(const float* x, float* y, int cols) {
  __shared__ float warp_m[32], warp_s[32];
  const auto unguarded_update = [](MaxSum a, float v) {
    const float m = fmaxf(a.m, v);
    return MaxSum{m, a.s * expf(a.m - m) + expf(v - m)};
  };
  online_softmax_block_row(x, y, cols, warp_m, warp_s, unguarded_update, online_combine);
}

void online_softmax(const float* x, float* y, int rows, int cols) {
  softmax_no_neg_inf_guard<<<rows, 256>>>(x, y, cols);
}
