// expect: crashed
// expect-sim-cases: 1x1
// Bug: the launcher passes a null output pointer (a forgotten cudaMalloc'd scratch buffer).
#include <cuda_runtime.h>

__global__ void writes_through(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  float* scratch = nullptr;  // missing: cudaMalloc(&scratch, ...)
  writes_through<<<(rows * cols + 255) / 256, 256>>>(scratch, rows * cols);
}
