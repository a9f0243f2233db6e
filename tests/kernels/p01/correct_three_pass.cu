// expect: passed
// Correct, written differently from the solution: a block-stride loop per pass, x read three times.
#include "reduce.cuh"

__global__ void softmax_three_pass(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  softmax_row(
      in, out, cols, [&](float v) { return block_max(v, scratch); },
      [&](float v) { return block_sum(v, scratch); });
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_three_pass<<<rows, 256>>>(x, y, cols);
}
