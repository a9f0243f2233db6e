// expect: failed
// expect-diagnosis: tiles_normalized_separately
// expect-sim-cases: 3x1025
// Bug: a one-pass shortcut. Each block takes a 1024-column tile of a row and writes the softmax of its
// tile alone, with the tile's max and sum; the tiles are never combined. Each tile of y sums to 1, so
// a row of k tiles sums to k.
#include "online.cuh"

constexpr int kThreads = 256, kTile = 4 * kThreads;

__global__ void softmax_per_tile(const float* x, float* y, int cols) {
  __shared__ float warp_m[32], warp_s[32];
  const size_t row = static_cast<size_t>(blockIdx.x) * cols;
  const int begin = blockIdx.y * kTile, end = min(begin + kTile, cols);
  MaxSum acc;
  for (int c = begin + threadIdx.x; c < end; c += blockDim.x) acc = online_update(acc, x[row + c]);
  const MaxSum tile = block_combine(acc, warp_m, warp_s, online_combine);  // should span the whole row
  for (int c = begin + threadIdx.x; c < end; c += blockDim.x) y[row + c] = expf(x[row + c] - tile.m) / tile.s;
}

void online_softmax(const float* x, float* y, int rows, int cols) {
  softmax_per_tile<<<dim3(rows, (cols + kTile - 1) / kTile), kThreads>>>(x, y, cols);
}
