// expect: timeout
// expect-sim-message: of CPU time without finishing.*its last memory access: at [^ ]*wrong_hang.cu:13
// Bug: the store loop never advances `c` (the increment was forgotten): the kernel spins forever.
#include <cuda_runtime.h>

#include <cmath>

__global__ void softmax_spins(const float* x, float* y, int cols) {
  const size_t row = blockIdx.x * static_cast<size_t>(cols);
  float m = -INFINITY, s = 0.0f;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, x[row + c]);
  for (int c = 0; c < cols; ++c) s += expf(x[row + c] - m);
  for (int c = 0; c < cols;) y[row + c] = expf(x[row + c] - m) / s;  // missing: ++c
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_spins<<<rows, 1>>>(x, y, cols);
}
