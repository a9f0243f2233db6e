// expect: failed
// backends: sim
// expect-sim-diagnosis: sim_warp_mask_excludes_self
// expect-sim-cases: 1x1
// Bug: the mask 0xffff names only lanes 0-15, but all 32 lanes call the shuffle, and lanes 0-15 read
// from lanes 16-31 at offset 16. Undefined behaviour that an H100 happens to run correctly (measured:
// every case passes there), so only the simulator can show it.
#include "reduce.cuh"

__global__ void softmax_half_mask(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x, lane = threadIdx.x;  // one warp per row
  const float* in = x + static_cast<size_t>(row) * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, in[c]);
  m = warp_max(m);
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += expf(in[c] - m);
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffu, s, o);
  for (int c = lane; c < cols; c += 32) y[static_cast<size_t>(row) * cols + c] = expf(in[c] - m) / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_half_mask<<<rows, 32>>>(x, y, rows, cols);
}
