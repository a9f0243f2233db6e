// expect: compile_error
// expect-message: void row_softmax\(const float\* x, float\* y, int rows, int cols\)
// Bug: the launcher's signature differs from the fixed one (x lost its const), so the harness cannot
// find the function it calls.
#include <cuda_runtime.h>

__global__ void fill(float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.0f;
}

void row_softmax(float* x, float* y, int rows, int cols) {
  fill<<<(rows * cols + 255) / 256, 256>>>(y, rows * cols);
}
