// expect: crashed
// expect-sim-cases: 1x1
// expect-sim-message: cudaMalloc of 1024 GiB at wrong_malloc_unchecked.cu:[0-9]+ failed \(out of memory\)
// Bug: a scratch buffer sized in bytes where elements were meant, squared: 1 TiB, which no device has.
// cudaMalloc fails, its error goes unchecked, and the kernel writes through the null pointer it left.
#include <cuda_runtime.h>

__global__ void softmax_via_scratch(const float* x, float* y, float* scratch, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* in = x + static_cast<size_t>(row) * cols;
  float m = -INFINITY, s = 0.0f;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, in[c]);
  for (int c = 0; c < cols; ++c) {
    scratch[static_cast<size_t>(row) * cols + c] = expf(in[c] - m);
    s += scratch[static_cast<size_t>(row) * cols + c];
  }
  for (int c = 0; c < cols; ++c)
    y[static_cast<size_t>(row) * cols + c] = scratch[static_cast<size_t>(row) * cols + c] / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  float* scratch = nullptr;
  cudaMalloc(&scratch, size_t{1} << 40);  // unchecked
  softmax_via_scratch<<<(rows + 127) / 128, 128>>>(x, y, scratch, rows, cols);
  cudaFree(scratch);
}
