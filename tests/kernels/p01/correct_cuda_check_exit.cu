// expect: passed
// Correct, with the error checking of many courses (and llm.c): every CUDA call goes through CUDA_CHECK,
// which prints the error and exits. Exiting is allowed; on a run without errors it never happens.
#include <cstdio>
#include <cstdlib>

#include "reduce.cuh"

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    const cudaError_t status = (call);                                                     \
    if (status != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status)); \
      std::exit(EXIT_FAILURE);                                                             \
    }                                                                                      \
  } while (0)

__global__ void softmax_checked(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, block_sum);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_checked<<<rows, 256>>>(x, y, cols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}
