// expect: passed
// expect-estimate: slow: [0-9]+x the solution's estimate: one block: 1 of 132 SMs busy, one thread per block
// backends: sim
// Correct and serial: one thread of one block walks the whole matrix. Every case passes, and the
// simulator's speed estimate flags it on the timed cases: one SM of 132 busy, one thread of its 2048. (On
// a GPU its timed cases take seconds a run: the simulator's estimate is the point of this test.)
#include <cuda_runtime.h>

#include <cmath>

__global__ void softmax_one_thread(const float* x, float* y, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    const float* in = x + static_cast<size_t>(r) * cols;
    float* out = y + static_cast<size_t>(r) * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, in[c]);
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += expf(in[c] - m);
    for (int c = 0; c < cols; ++c) out[c] = expf(in[c] - m) / s;
  }
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_one_thread<<<1, 1>>>(x, y, rows, cols);
}
