// expect: passed
// Correct but naive: one thread per row, sequential float sums over up to 16384 terms. Slow, but the
// harness must not fail it for rounding.
#include <cuda_runtime.h>

#include <cmath>

__global__ void softmax_thread_per_row(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* in = x + static_cast<size_t>(row) * cols;
  float* out = y + static_cast<size_t>(row) * cols;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, in[c]);
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += expf(in[c] - m);
  for (int c = 0; c < cols; ++c) out[c] = expf(in[c] - m) / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_thread_per_row<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
}
