// expect: passed
// Correct, saved as some editors save a file: a UTF-8 byte-order mark first and CRLF line endings. nvcc
// compiles it; so must the simulator's build (which skips the mark) and CUDA's front end beside it.
#include "reduce.cuh"

__global__ void softmax_from_a_windows_editor(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, block_sum);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_from_a_windows_editor<<<rows, 128>>>(x, y, cols);
}
