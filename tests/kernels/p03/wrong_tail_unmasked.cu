// expect: failed
// expect-sim-finding: global_oob_read
// expect-sim-cases: 1x1
// Bug: pass 1 is unrolled by 4 and its loads have no `c < cols` check. Past the end of a row they read
// the next row's first columns into this row's max and sum, and past the last row, out of bounds.
#include "online.cuh"

constexpr int kUnroll = 4;

__global__ void softmax_tail_unmasked(const float* x, float* y, int cols) {
  __shared__ float warp_m[32], warp_s[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  MaxSum acc;
  for (int base = threadIdx.x; base < cols; base += kUnroll * blockDim.x)
    for (int i = 0; i < kUnroll; ++i) acc = online_update(acc, in[base + i * blockDim.x]);  // no mask
  write_softmax_row(in, out, cols, block_combine(acc, warp_m, warp_s, online_combine));
}

void online_softmax(const float* x, float* y, int rows, int cols) {
  softmax_tail_unmasked<<<rows, 256>>>(x, y, cols);
}
