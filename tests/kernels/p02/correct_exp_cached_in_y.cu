// expect: passed
// Correct, written differently: pass 2 stores exp(x - m) into y as it sums it, and pass 3 rescales y in
// place instead of reading x a third time. Same answer, other traffic: x read twice, y written twice
// and read once.
#include "passes.cuh"

__global__ void softmax_exp_cached_in_y(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  const float m = row_max(in, cols, scratch);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    out[c] = expf(in[c] - m);
    s += out[c];  // each thread reads back only what it wrote itself: no barrier needed
  }
  const float inv_s = 1.0f / block_sum(s, scratch);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] *= inv_s;
}

void tiled_softmax(const float* x, float* y, int rows, int cols) {
  softmax_exp_cached_in_y<<<rows, 512>>>(x, y, cols);
}
