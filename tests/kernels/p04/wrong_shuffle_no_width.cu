// expect: failed
// expect-diagnosis: rows_mixed
// expect-sim-cases: 7x17
// Bug: short rows are shared out to groups of fewer than 32 lanes, several rows per warp. The group
// reduces with shuffles of width `lanes`, then lane 0 broadcasts the row's (max, sum), but without the
// width argument: __shfl_sync(mask, v, 0) reads lane 0 of the warp, so every row of the warp is
// normalized with its first row's max and sum.
#include "online.cuh"

__global__ void softmax_broadcast_whole_warp(const float* x, float* y, int rows, int cols, int lanes) {
  const int row = blockIdx.x * (blockDim.x / lanes) + threadIdx.x / lanes, lane = threadIdx.x % lanes;
  const float* in = x + static_cast<size_t>(row) * cols;
  Running r = row < rows ? lane_stats(in, cols, lane, lanes) : Running{};
  for (int offset = lanes / 2; offset > 0; offset /= 2) {  // lane 0 of the group ends with the row's pair
    r = merge(r, {__shfl_down_sync(0xffffffffu, r.m, offset, lanes),
                  __shfl_down_sync(0xffffffffu, r.s, offset, lanes)});
  }
  r = {__shfl_sync(0xffffffffu, r.m, 0), __shfl_sync(0xffffffffu, r.s, 0)};  // missing: width `lanes`
  if (row < rows) write_row(in, y + static_cast<size_t>(row) * cols, cols, lane, lanes, r);
}

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  const int lanes = lanes_for(cols), rows_per_block = 256 / lanes;
  softmax_broadcast_whole_warp<<<(rows + rows_per_block - 1) / rows_per_block, 256>>>(x, y, rows, cols,
                                                                                      lanes);
}
