// expect: failed
// expect-diagnosis: out_of_bounds_write
// expect-sim-diagnosis: sim_global_oob_write
// expect-sim-cases: 1x1
// Bug: the store is not masked: threads past the end of the row write into the next row, and the last
// row's block writes past the end of y.
#include <algorithm>

#include "reduce.cuh"

__global__ void softmax_unmasked_store(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  const float v = threadIdx.x < cols ? in[threadIdx.x] : -INFINITY;  // one element per thread
  const float m = block_max(v, scratch);
  const float e = expf(v - m);
  const float s = block_sum(e, scratch);
  out[threadIdx.x] = e / s;  // missing: if (threadIdx.x < cols)
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  const int threads = std::min((cols + 31) / 32 * 32, 1024);  // one thread per column, whole warps
  softmax_unmasked_store<<<rows, threads>>>(x, y, cols);
}
