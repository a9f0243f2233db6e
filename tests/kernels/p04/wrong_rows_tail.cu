// expect: failed
// backends: sim
// expect-sim-diagnosis: sim_global_oob_write sim_global_oob_read
// expect-sim-cases: 1x1
// Bug: the grid rounds the rows up to whole tiles of 8, but nothing checks `row < rows`: when rows is
// not a multiple of 8, the last tile's extra warps read past x and write past y. On a GPU those stores
// land beyond the harness's guard zone for wide rows (another buffer, or an illegal address), so the
// outcome there is not fixed; the simulator names the store.
#include "online.cuh"

constexpr int kTileRows = 8;

__global__ void softmax_unmasked_rows(const float* x, float* y, int cols) {
  const int row = blockIdx.x * kTileRows + threadIdx.x / 32, lane = threadIdx.x % 32;
  const float* in = x + static_cast<size_t>(row) * cols;  // missing: row < rows
  const Running r = group_merge(lane_stats(in, cols, lane, 32), 32);
  write_row(in, y + static_cast<size_t>(row) * cols, cols, lane, 32, r);
}

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  softmax_unmasked_rows<<<(rows + kTileRows - 1) / kTileRows, kTileRows * 32>>>(x, y, cols);
}
