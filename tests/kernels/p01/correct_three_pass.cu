// expect: passed
// Correct, written differently from the solution: a block-stride loop per pass, x read three times.
#include "reduce.cuh"

__global__ void softmax_three_pass(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, block_sum);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_three_pass<<<rows, 256>>>(x, y, cols);
}
