// expect: crashed
// expect-sim-message: refused: .*kernel write of 4 bytes at host address .*a GPU cannot reach it
// expect-sim-cases: 1x1
// Forgery: a relay through host memory, with no copy at all. A kernel copies x into a buffer from
// malloc, host code computes the softmax there, and a kernel copies it into y. A GPU without HMM stops
// the kernel at the host address (cudaErrorIllegalAddress); the simulator refuses the kernel's access
// to host memory.
#include <cuda_runtime.h>

#include <cstdlib>

#include "relay.cuh"

void row_softmax(const float* x, float* y, int rows, int cols) {
  const size_t n = static_cast<size_t>(rows) * cols;
  float* host = static_cast<float*>(std::malloc(n * sizeof(float)));
  copy<<<256, 256>>>(x, host, n);
  cudaDeviceSynchronize();
  softmax_rows_on_host(host, rows, cols);
  copy<<<256, 256>>>(host, y, n);
  cudaDeviceSynchronize();
  std::free(host);
}
