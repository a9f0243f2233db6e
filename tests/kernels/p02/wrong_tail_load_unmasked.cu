// expect: failed
// expect-sim-diagnosis: sim_global_oob_read
// expect-sim-cases: 1x1
// Bug: the max and sum passes load whole 256-column tiles with no `c < cols` check. The last tile of
// a row reads the next row's first columns into this row's max and sum, and the last row reads past
// the end of x. Only the store is masked.
#include "../p01/reduce.cuh"

__global__ void softmax_unmasked_tail_load(const float* x, float* y, int cols) {
  __shared__ float scratch[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int tile = 0; tile < cols; tile += 256) m = fmaxf(m, in[tile + threadIdx.x]);  // missing: c < cols
  m = block_max(m, scratch);
  float s = 0.0f;
  for (int tile = 0; tile < cols; tile += 256) s += expf(in[tile + threadIdx.x] - m);  // missing: c < cols
  s = block_sum(s, scratch);
  for (int c = threadIdx.x; c < cols; c += 256) out[c] = expf(in[c] - m) / s;
}

void tiled_softmax(const float* x, float* y, int rows, int cols) {
  softmax_unmasked_tail_load<<<rows, 256>>>(x, y, cols);
}
