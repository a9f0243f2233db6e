// expect: compile_error
// expect-message: wrong_compile_error.cu[:(]8
// expect-nvcc: error
#include <cuda_runtime.h>

__global__ void softmax_typo(const float* x, float* y, int cols) {
  const int c = threadIdx.x;
  if (c < cols) y[c] = expf(x[c]) / undeclared_sum;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_typo<<<rows, 256>>>(x, y, cols);
}
