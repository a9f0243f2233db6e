// expect: failed
// expect-sim-diagnosis: sim_global_oob_read
// expect-sim-cases: 1x1
// Bug: the first pass loads whole tiles of 128 columns (4 per lane) with no `c < cols` check, so a row
// whose width is not a multiple of 128 takes the head of the next row into its max and sum, and the
// last row reads past the end of x. The second pass is masked, so every element is written, wrongly.
#include "online.cuh"

constexpr int kTileRows = 8, kTileCols = 128;

__global__ void softmax_unmasked_cols(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x * kTileRows + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together, before any shuffle
  const float* in = x + static_cast<size_t>(row) * cols;
  Running r;
  for (int tile = 0; tile < cols; tile += kTileCols) {
    for (int c = tile + lane; c < tile + kTileCols; c += 32)
      r = merge(r, {in[c], 1.0f});  // missing: c < cols
  }
  write_row(in, y + static_cast<size_t>(row) * cols, cols, lane, 32, group_merge(r, 32));
}

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  softmax_unmasked_cols<<<(rows + kTileRows - 1) / kTileRows, kTileRows * 32>>>(x, y, rows, cols);
}
