// expect: failed
// expect-diagnosis: neg_inf_nan
// expect-sim-cases: neg_inf
// Bug: the max is taken over the first tile only. On paper any constant gives the same softmax, and
// where the first tile's max is near the row's it even passes. But a first tile of -inf (neg_inf,
// neg_inf_tiles) gives m = -inf: exp(x - m) is inf for the finite values and NaN for the -inf ones.
// A row whose largest logits sit 89 or more above the first tile's would overflow exp the same way.
#include "passes.cuh"

__global__ void softmax_first_tile_max(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  const float m = block_max(threadIdx.x < cols ? in[threadIdx.x] : -INFINITY, scratch);  // tile 0 only
  const float s = row_exp_sum(in, cols, m, scratch);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = expf(in[c] - m) / s;
}

void tiled_softmax(const float* x, float* y, int rows, int cols) {
  softmax_first_tile_max<<<rows, 512>>>(x, y, cols);
}
