// expect: passed
// Correct, written differently: a 32 x 8 block is a tile of 8 rows, one row per threadIdx.y. The 32
// threads of a row merge their (max, sum) pairs through shared memory instead of shuffles.
#include "online.cuh"

constexpr int kTileRows = 8;

__global__ void softmax_shared_tile(const float* x, float* y, int rows, int cols) {
  __shared__ float partial_m[kTileRows][32], partial_s[kTileRows][32];
  const int row = blockIdx.x * kTileRows + threadIdx.y, lane = threadIdx.x;
  const bool in_matrix = row < rows;
  const float* in = x + static_cast<size_t>(row) * cols;
  const Running mine = in_matrix ? lane_stats(in, cols, lane, 32) : Running{};
  partial_m[threadIdx.y][lane] = mine.m;
  partial_s[threadIdx.y][lane] = mine.s;
  __syncthreads();  // every thread reaches it: rows past the end only skip their loads
  Running r;
  for (int l = 0; l < 32; ++l) r = merge(r, {partial_m[threadIdx.y][l], partial_s[threadIdx.y][l]});
  if (in_matrix) write_row(in, y + static_cast<size_t>(row) * cols, cols, lane, 32, r);
}

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  softmax_shared_tile<<<(rows + kTileRows - 1) / kTileRows, dim3(32, kTileRows)>>>(x, y, rows, cols);
}
