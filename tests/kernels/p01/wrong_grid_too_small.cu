// expect: failed
// expect-diagnosis: rows_not_written
// expect-sim-cases: 1x1 2x32
// Bug: the grid has one block too few: the last row is never computed (and a 1-row matrix launches an
// empty grid, which CUDA refuses).
#include "reduce.cuh"

__global__ void softmax_rows(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, block_sum);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_rows<<<rows - 1, 256>>>(x, y, cols);
}
