// Puzzle 4 · 2D-blocked softmax — version 1: clear.
// The spec is in the stub, 04_blocked_softmax.cu; the walk-through is the puzzle's docs page.
//
// A block is a tile of 8 rows x 32 columns: each of its 8 warps owns one row, and each lane of the warp
// every 32nd column of it. So a row of 32 floats is one load per lane, and a million such rows are
// 125,000 blocks of useful work, not a million blocks of mostly idle threads. Per row, x read twice:
//   pass 1  each lane folds its columns into a running pair (m, s), puzzle 3's online recurrence: m the
//           max so far, s the sum of exp(x - m) so far; the warp combines its 32 pairs with shuffles;
//   pass 2  y = exp(x - m) / s.
#include <cuda_runtime.h>

#include <cmath>

constexpr int kRowsPerBlock = 8;  // BLOCK_ROWS: one warp per row
constexpr int kLanes = 32;        // BLOCK_COLS: the lanes of a row's warp

struct MaxSum {
  float m;  // the max of the values seen so far (-inf: none yet)
  float s;  // the sum of exp(value - m) over them
};

// s, a sum relative to max `from`, made relative to max `to` (>= from). While a part has seen only -inf,
// from = to = -inf and exp(from - to) would be NaN; its sum is 0 anyway.
__device__ float rescale(float s, float from, float to) {
  return from == -INFINITY ? 0.0f : s * expf(from - to);
}

// The pair of two sets of values together: two lanes' pairs, or a pair and one value x, whose own pair
// is (x, exp(x - x) = 1).
__device__ MaxSum combine(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  return {m, rescale(a.s, a.m, m) + rescale(b.s, b.m, m)};
}

__global__ void blocked_softmax_kernel(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / kLanes;  // this warp's row
  const int lane = threadIdx.x % kLanes;
  if (row >= rows) return;  // the last tile's spare warps leave whole: no shuffle waits for them
  const float* row_x = x + static_cast<size_t>(row) * cols;
  float* row_y = y + static_cast<size_t>(row) * cols;

  // Pass 1: lane l folds columns l, l + 32, ... into its pair: the warp reads 32 neighbours at a time.
  MaxSum acc{-INFINITY, 0.0f};
  for (int c = lane; c < cols; c += kLanes) acc = combine(acc, {row_x[c], 1.0f});

  // The row's pair: a butterfly of shuffles gives every lane the combination of the warp's 32 pairs.
  for (int offset = kLanes / 2; offset > 0; offset /= 2)
    acc = combine(acc,
                  {__shfl_xor_sync(0xffffffffu, acc.m, offset), __shfl_xor_sync(0xffffffffu, acc.s, offset)});

  // Pass 2: y = exp(x - m) / s.
  for (int c = lane; c < cols; c += kLanes) row_y[c] = expf(row_x[c] - acc.m) / acc.s;
}

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  const int blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;  // enough tiles to cover every row
  blocked_softmax_kernel<<<blocks, kRowsPerBlock * kLanes>>>(x, y, rows, cols);
}
