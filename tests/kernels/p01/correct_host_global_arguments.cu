// expect: passed
// expect-sim-cases: 1x1 33x31 127x129
// Correct: the launch's configuration and arguments read host globals, and a lone 0 is a null pointer.
// A GPU evaluates them on the host, once; so does the simulator, whose kernels may reach no host memory.
#include <cuda_runtime.h>

#include <cmath>

namespace {
int threads_per_block = 128;
struct Shape {
  int rows, cols;
};
Shape shape;
}  // namespace

__global__ void softmax_thread_per_row(const float* x, float* y, Shape s, const float* bias) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= s.rows) return;
  const float* in = x + static_cast<size_t>(row) * s.cols;
  float* out = y + static_cast<size_t>(row) * s.cols;
  const float b = bias ? *bias : 0.0f;
  float m = -INFINITY;
  for (int c = 0; c < s.cols; ++c) m = fmaxf(m, in[c] + b);
  float sum = 0.0f;
  for (int c = 0; c < s.cols; ++c) sum += expf(in[c] + b - m);
  for (int c = 0; c < s.cols; ++c) out[c] = expf(in[c] + b - m) / sum;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  shape = {rows, cols};
  const int blocks = (rows + threads_per_block - 1) / threads_per_block;
  softmax_thread_per_row<<<blocks, threads_per_block>>>(x, y, shape, 0);
}
