// expect: failed
// expect-diagnosis: row_scaled rows_sum_too_small
// expect-sim-cases: 7x17
// Bug: the (max, sum) is reduced over the whole tile instead of per row: the 8 warps of a block, one
// per row, merge their pairs through shared memory, so all 8 rows are divided by one sum.
#include "online.cuh"

constexpr int kTileRows = 8;

__global__ void softmax_tile_stats(const float* x, float* y, int rows, int cols) {
  __shared__ float warp_m[kTileRows], warp_s[kTileRows];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, row = blockIdx.x * kTileRows + warp;
  const float* in = x + static_cast<size_t>(row) * cols;
  const Running mine = group_merge(row < rows ? lane_stats(in, cols, lane, 32) : Running{}, 32);
  if (lane == 0) {
    warp_m[warp] = mine.m;
    warp_s[warp] = mine.s;
  }
  __syncthreads();
  Running tile;
  for (int w = 0; w < kTileRows; ++w) tile = merge(tile, {warp_m[w], warp_s[w]});  // wrong: all rows
  if (row < rows) write_row(in, y + static_cast<size_t>(row) * cols, cols, lane, 32, tile);
}

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  softmax_tile_stats<<<(rows + kTileRows - 1) / kTileRows, kTileRows * 32>>>(x, y, rows, cols);
}
