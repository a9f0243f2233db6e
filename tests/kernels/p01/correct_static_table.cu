// expect: passed
// expect-sim-cases: 1x1 33x31 127x129
// Correct: a device function reads a static const table (CUDA keeps it in device memory) at an index
// known only at run time: a shift per row, which softmax ignores. The simulator keeps the table with the
// file's other constants in host memory; reading it is not a kernel's access to host memory.
#include <cuda_runtime.h>

#include <cmath>

__device__ float shift_of(int row) {
  static const float kShifts[8] = {0.0f, 1.0f, -2.0f, 3.0f, 0.5f, -1.5f, 2.5f, -3.0f};
  return kShifts[row & 7];
}

__global__ void softmax_thread_per_row(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* in = x + static_cast<size_t>(row) * cols;
  float* out = y + static_cast<size_t>(row) * cols;
  const float shift = shift_of(row);
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, in[c] + shift);
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += expf(in[c] + shift - m);
  for (int c = 0; c < cols; ++c) out[c] = expf(in[c] + shift - m) / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_thread_per_row<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
}
