// expect: failed
// expect-diagnosis: tiles_normalized_separately
// expect-sim-cases: 3x1025
// Bug: the stub's tempting version, one loop over the tiles doing puzzle 1 on each tile: the max and
// the sum are those of the current tile only. Each tile of y sums to 1, so a row of k tiles sums to k.
#include "../p01/reduce.cuh"

__global__ void softmax_per_tile(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  for (int tile = 0; tile < cols; tile += blockDim.x) {
    const int c = tile + threadIdx.x;
    const float v = c < cols ? in[c] : -INFINITY;
    const float m = block_max(v, scratch);
    const float s = block_sum(expf(v - m), scratch);
    if (c < cols) out[c] = expf(v - m) / s;
  }
}

void tiled_softmax(const float* x, float* y, int rows, int cols) {
  softmax_per_tile<<<rows, 1024>>>(x, y, cols);
}
