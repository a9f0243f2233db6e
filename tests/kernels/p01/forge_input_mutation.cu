// expect: failed
// expect-diagnosis: inputs_modified
// expect-message: right values, but the inputs were modified
// expect-sim-cases: 1x1
// Forgery: a right kernel, then x is overwritten with zeros (as if to hide what it was).
#include "reduce.cuh"

__global__ void softmax_rows(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, [](float v, float* p) { return block_sum(v, p); });
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_rows<<<rows, 256>>>(x, y, cols);
  cudaMemset(const_cast<float*>(x), 0, sizeof(float) * rows * cols);
}
