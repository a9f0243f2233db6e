// expect: failed
// expect-diagnosis: online_missing_rescale row_scaled
// expect-sim-cases: 7x17
// Bug: the threads' partial sums are added as they are, but each is relative to its own thread's max:
// they must be rescaled to the common max first. s comes out too large, every y of the row too small.
#include "online.cuh"

__global__ void softmax_combine_adds_sums(const float* x, float* y, int cols) {
  __shared__ float warp_m[32], warp_s[32];
  const auto combine_without_rescale = [](MaxSum a, MaxSum b) {
    return MaxSum{fmaxf(a.m, b.m), a.s + b.s};  // should rescale a.s and b.s to the new max
  };
  online_softmax_block_row(x, y, cols, warp_m, warp_s, online_update, combine_without_rescale);
}

void online_softmax(const float* x, float* y, int rows, int cols) {
  softmax_combine_adds_sums<<<rows, 256>>>(x, y, cols);
}
