// Puzzle 4 · 2D-blocked softmax — reference solution.
// The spec is in puzzles/04_blocked_softmax.cu; the walk-through is docs/04_blocked_softmax.md.
//
// A group of `lanes` consecutive threads owns one row: 32 (a warp) for rows of 128 columns or more,
// fewer for shorter rows, so that a warp of a 32-column matrix works on 4 rows instead of idling.
// A block of 256 threads is a tile of 256 / lanes rows; each step of the column loop covers
// kPerLane * lanes columns of every row of the tile. Two passes over x:
//   1. each lane keeps a running (max, sum) over its columns (puzzle 3's online recurrence), then the
//      group merges its lanes' pairs with shuffles of width `lanes`, which keep the rows apart
//   2. y = exp(x - m) / s
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kWarp = 32;
constexpr int kBlockThreads = 256;
constexpr int kPerLane = 4;  // loads each lane issues per step: independent, so all are in flight

struct Running {
  float m = -INFINITY;  // max so far
  float s = 0.0f;       // sum of exp(x - m) so far
};

// The pair of the union of two parts. A part that saw only -inf (or nothing) has m = -inf; when both
// have, exp(-inf - (-inf)) would be NaN, so the merge keeps the empty pair.
__device__ Running merge(Running a, Running b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__global__ void blocked_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int rows, int cols,
                                       int lanes) {
  const int lane = threadIdx.x % lanes;
  const int row = blockIdx.x * (blockDim.x / lanes) + threadIdx.x / lanes;
  const bool in_matrix = row < rows;  // the last tile may hang past the last row
  const float* row_x = x + static_cast<size_t>(row) * cols;
  float* row_y = y + static_cast<size_t>(row) * cols;

  // Pass 1. Lane l of the group reads columns l, l + lanes, ...: a warp's load covers whole 32-byte
  // sectors of consecutive rows, so every byte fetched is used.
  Running r;
  for (int tile = 0; tile < cols; tile += kPerLane * lanes) {
    float v[kPerLane];
    Running step;
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      const int c = tile + k * lanes + lane;
      v[k] = in_matrix && c < cols ? row_x[c] : -INFINITY;  // -inf pads: it adds nothing
      step.m = fmaxf(step.m, v[k]);
    }
    if (step.m == -INFINITY) continue;
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) step.s += expf(v[k] - step.m);
    r = merge(r, step);
  }
  // Butterfly within the group: the width argument keeps each group to its own row.
  for (int offset = lanes / 2; offset > 0; offset /= 2) {
    r = merge(r, {__shfl_xor_sync(0xffffffffu, r.m, offset, lanes),
                  __shfl_xor_sync(0xffffffffu, r.s, offset, lanes)});
  }
  if (!in_matrix) return;  // after the last shuffle: every lane of the warp took part in each

  // Pass 2.
  const float inv_s = 1.0f / r.s;
#pragma unroll kPerLane
  for (int c = lane; c < cols; c += lanes) row_y[c] = expf(row_x[c] - r.m) * inv_s;
}

}  // namespace

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  // The fewest lanes (a power of two, at most a warp) whose kPerLane loads cover a row in one step.
  int lanes = 1;
  while (lanes < kWarp && lanes * kPerLane < cols) lanes *= 2;
  const int rows_per_block = kBlockThreads / lanes;
  const int blocks = (rows + rows_per_block - 1) / rows_per_block;
  blocked_softmax_kernel<<<blocks, kBlockThreads>>>(x, y, rows, cols, lanes);
}
