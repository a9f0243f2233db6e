// expect: failed
// expect-diagnosis: inputs_modified
// expect-sim-cases: 1x1
// Bug: exp(x - m) is stored back into x to save registers; the output is right, but x is the caller's.
#include "reduce.cuh"

__global__ void softmax_in_place(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  float* in = const_cast<float*>(x) + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, in[c]);
  m = block_max(m, scratch);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    in[c] = expf(in[c] - m);
    s += in[c];
  }
  s = block_sum(s, scratch);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[static_cast<size_t>(blockIdx.x) * cols + c] = in[c] / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_in_place<<<rows, 256>>>(x, y, cols);
}
