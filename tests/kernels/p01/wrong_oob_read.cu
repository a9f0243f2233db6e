// expect: failed
// expect-sim-diagnosis: sim_global_oob_read
// expect-sim-cases: 1x1
// Bug: every thread loads a full 256-column tile with no bounds check, so short rows read the next
// row's values (and the last row reads past the end of x); only the store is masked.
#include "reduce.cuh"

__global__ void softmax_unmasked_load(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  const int tiles = (cols + 255) / 256;
  float m = -INFINITY;
  for (int t = 0; t < tiles; ++t) m = fmaxf(m, in[t * 256 + threadIdx.x]);  // missing: c < cols
  m = block_max(m, scratch);
  float s = 0.0f;
  for (int t = 0; t < tiles; ++t) s += expf(in[t * 256 + threadIdx.x] - m);
  s = block_sum(s, scratch);
  for (int c = threadIdx.x; c < cols; c += 256)
    y[static_cast<size_t>(blockIdx.x) * cols + c] = expf(in[c] - m) / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_unmasked_load<<<rows, 256>>>(x, y, cols);
}
