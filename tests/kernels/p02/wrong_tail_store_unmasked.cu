// expect: failed
// expect-diagnosis: out_of_bounds_write
// expect-sim-diagnosis: sim_global_oob_write
// expect-sim-cases: 1x1
// Bug: the loads of the last tile are masked, its store is not. Threads past the end of a row write
// into the next row's first columns, and the last row's block writes past the end of y.
#include "passes.cuh"

__global__ void softmax_unmasked_tail_store(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  const float m = row_max(in, cols, scratch);
  const float s = row_exp_sum(in, cols, m, scratch);
  for (int tile = 0; tile < cols; tile += blockDim.x) {
    const int c = tile + threadIdx.x;
    const float v = c < cols ? in[c] : -INFINITY;
    out[c] = expf(v - m) / s;  // missing: if (c < cols)
  }
}

void tiled_softmax(const float* x, float* y, int rows, int cols) {
  softmax_unmasked_tail_store<<<rows, 256>>>(x, y, cols);
}
