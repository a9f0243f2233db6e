// expect: passed
// expect-estimate: slow: [0-9]+x the solution's estimate: uncoalesced: a warp's access touches 32.0 sectors
// Correct but naive: one thread per row, sequential float sums over up to 16384 terms. Slow, but the
// harness must not fail it for rounding. The simulator's speed estimate flags it on the timed cases: the 32
// lanes of a warp read 32 rows, each from its own sector.
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
