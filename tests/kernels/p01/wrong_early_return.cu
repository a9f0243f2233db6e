// expect: failed
// expect-sim-diagnosis: sim_barrier_exit
// expect-sim-cases: 1x1
// Bug: threads past the end of a short row return early, then the rest wait at __syncthreads inside
// the block reductions (undefined behaviour), and the reductions read slots nobody wrote.
#include "reduce.cuh"

__global__ void softmax_early_exit(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  if (threadIdx.x >= cols) return;  // wrong: every thread must reach the barriers below
  softmax_block_row(x, y, cols, scratch, partial, block_sum);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_early_exit<<<rows, 256>>>(x, y, cols);
}
