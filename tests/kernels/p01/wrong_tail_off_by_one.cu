// expect: failed
// expect-diagnosis: unwritten_elements
// expect-sim-cases: 1x1
// Bug: `c < cols - 1` drops the last column from the max, the sum and the output.
#include "reduce.cuh"

__global__ void softmax_drops_last(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols - 1; c += blockDim.x) m = fmaxf(m, in[c]);
  m = block_max(m, scratch);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols - 1; c += blockDim.x) s += expf(in[c] - m);
  s = block_sum(s, scratch);
  for (int c = threadIdx.x; c < cols - 1; c += blockDim.x) out[c] = expf(in[c] - m) / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_drops_last<<<rows, 256>>>(x, y, cols);
}
