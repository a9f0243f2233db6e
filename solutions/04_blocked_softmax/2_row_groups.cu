// Puzzle 4 · 2D-blocked softmax — version 2: row groups sized to the row, long rows split across blocks.
// Over 1_clear.cu: a row's group of lanes grows with the row (1 to 1024 lanes, 16 values each in
// registers), so x is read from memory once when the row fits; groups of up to a warp load and store
// 16-byte pieces; the group agrees on the max, then the sum (two plain reductions, fewer registers than
// merging pairs); rows longer than 32768 columns go to common/split_long_rows.cuh, which spreads their
// chunks over the whole GPU.
// The spec is in the stub, 04_blocked_softmax.cu; the walk-through is the puzzle's docs page.
//
// Rows of up to 32768 columns: a group of `lanes` consecutive threads owns one row, and a block is a tile
// of blockDim.x / lanes rows. The launcher picks the fewest lanes (a power of two, 1 to 1024) whose
// registers hold the whole row at kCached values per lane: 2 lanes for a 32-column row (a warp then works
// on 16 rows), 8 for 128 columns; a group wider than a warp is a block of its own, up to 1024 lanes for
// 16384 columns.
//   1. Each lane loads its first kCached columns into registers, in pieces of 4 consecutive columns (one
//      16-byte load each) where the rows allow and the group is at most a warp. Columns beyond those (rows
//      longer than 16384) it folds into a running (max, sum) as it streams them: puzzle 3's online
//      recurrence.
//   2. The group agrees on the row's max M (a max reduction), then on its sum (each lane adds
//      exp(x - M) of its registers and its running sum rescaled to M): two plain reductions, cheaper in
//      registers than merging (max, sum) pairs, and registers are what decide how many warps fit.
//   3. y = exp(x - M) / sum, from the registers: a row that fits is read from memory once.
// Reductions use shuffles of width min(lanes, 32), which keep the rows of a warp apart, and, for groups
// wider than a warp, one value per warp through shared memory.
//
// Longer rows: a tile of rows has nothing to add once one row is longer than a block can hold; what
// matters is spreading a few long rows over the whole GPU. Puzzle 3's split_long_rows.cuh (shared with its
// version 2) does that (chunks of a row on many blocks, each waiting in shared memory for its row's pair).
#include <cuda_runtime.h>

#include <cmath>

#include "../common/split_long_rows.cuh"

namespace {

constexpr int kWarp = 32;
constexpr int kMinBlockThreads = 256;
constexpr int kMaxLanes = 1024;
constexpr int kCached = 16;  // values per lane, loaded together: all in flight at once
constexpr int kStream = 4;   // values per lane per step beyond the cached ones (few: cached are still live)
constexpr int kGroupCols = kMaxLanes * kCached;  // 16384: the widest row a group holds in registers
constexpr int kWideRowCols = 2 * kGroupCols;     // longer rows than this are split across blocks

struct Max {
  static constexpr float identity = -INFINITY;
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Sum {
  static constexpr float identity = 0.0f;
  __device__ float operator()(float a, float b) const { return a + b; }
};

// Every lane of a row's group gets op over the group's values.
template <class Op>
__device__ float group_reduce(float v, int lanes, Op op) {
  const int width = lanes < kWarp ? lanes : kWarp;
  for (int offset = width / 2; offset > 0; offset /= 2)
    v = op(v, __shfl_xor_sync(0xffffffffu, v, offset, width));
  if (lanes <= kWarp) return v;
  // Wider than a warp: the block is one row (the launcher makes sure). Lane 0 of each warp posts its value.
  __shared__ float per_warp[kWarp];
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp, warps = lanes / kWarp;
  if (lane == 0) per_warp[warp] = v;
  __syncthreads();
  v = lane < warps ? per_warp[lane] : Op::identity;
  for (int offset = kWarp / 2; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  __syncthreads();  // per_warp is reused by the next reduction
  return v;
}

// e^(a - b), with e^(-inf - b) = 0 also for b = -inf (a lane or a row of the tile past the last row).
__device__ float exp_minus(float a, float b) {
  return a == -INFINITY ? 0.0f : __expf(a - b);
}

// A row wider than a warp has a block of up to 1024 threads to itself; two such blocks per SM hide one's
// reductions behind the other's loads, which needs at most 32 registers a thread (kMinBlocks = 2).
// Narrow groups run in blocks of 256 and keep the registers the compiler wants (measured: faster).
template <int kVec, int kMaxThreads, int kMinBlocks>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
    blocked_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int rows, int cols,
                           int lanes) {
  constexpr int kPieces = kCached / kVec;
  const int lane = threadIdx.x % lanes;
  const int row = blockIdx.x * (blockDim.x / lanes) + threadIdx.x / lanes;
  const bool in_matrix = row < rows;  // the last tile may hang past the last row
  const float* row_x = x + static_cast<size_t>(row) * cols;
  float* row_y = y + static_cast<size_t>(row) * cols;
  const int cached_cols = kCached * lanes;
  // Lane `lane` owns the row's pieces lane, lane + lanes, ...: kVec consecutive columns each, one access
  // (puzzle 3's load_piece and store_piece). With cols % 4 == 0 a piece is wholly in the row or past it.
  // A warp's load of piece k covers whole 32-byte sectors of consecutive rows.
  auto column = [&](int k) { return (lane + k * lanes) * kVec; };  // the first column of the lane's piece k

  // 1. The lane's kCached columns, all loads in flight at once.
  float v[kCached];
  float lane_max = -INFINITY;
#pragma unroll
  for (int k = 0; k < kPieces; ++k) {
    online::load_piece<kVec>(row_x, column(k), in_matrix && column(k) < cols, v + k * kVec);
    for (int i = 0; i < kVec; ++i) lane_max = fmaxf(lane_max, v[k * kVec + i]);
  }
  float stream_max = -INFINITY, stream_sum = 0.0f;  // online (max, sum) of the columns past the registers
  for (int tile = cached_cols; tile < cols; tile += kStream * lanes) {
    float w[kStream];
    float m = stream_max;
#pragma unroll
    for (int k = 0; k < kStream; ++k) {
      const int c = tile + lane + k * lanes;
      w[k] = in_matrix && c < cols ? row_x[c] : -INFINITY;
      m = fmaxf(m, w[k]);
    }
    stream_sum *= exp_minus(stream_max, m);  // the sum so far, rescaled to the new max
#pragma unroll
    for (int k = 0; k < kStream; ++k) stream_sum += exp_minus(w[k], m);
    stream_max = m;
  }

  // 2. The row's max, then its sum relative to it.
  const float row_max = group_reduce(fmaxf(lane_max, stream_max), lanes, Max{});
  float lane_sum = stream_sum * exp_minus(stream_max, row_max);
#pragma unroll
  for (int k = 0; k < kCached; ++k) {
    v[k] = exp_minus(v[k], row_max);
    lane_sum += v[k];
  }
  const float inv_sum = 1.0f / group_reduce(lane_sum, lanes, Sum{});
  if (!in_matrix) return;  // after the reductions: every lane of the warp took part in them

    // 3.
#pragma unroll
  for (int k = 0; k < kCached; ++k) v[k] *= inv_sum;
#pragma unroll
  for (int k = 0; k < kPieces; ++k)
    if (column(k) < cols) online::store_piece<kVec>(row_y, column(k), v + k * kVec);
  for (int c = cached_cols + lane; c < cols; c += lanes) row_y[c] = __expf(row_x[c] - row_max) * inv_sum;
}

}  // namespace

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  if (cols > kWideRowCols) {
    online::split_row_softmax(x, y, rows, cols);
    return;
  }
  int lanes = 1;
  while (lanes < kMaxLanes && lanes * kCached < cols) lanes *= 2;
  if (lanes > kWarp) {  // a block of its own (group_reduce relies on it)
    blocked_softmax_kernel<1, kMaxLanes, 2><<<rows, lanes>>>(x, y, rows, cols, lanes);
    return;
  }
  const int rows_per_block = kMinBlockThreads / lanes;
  const int blocks = (rows + rows_per_block - 1) / rows_per_block;
  // Only narrow groups take 16-byte pieces: under the wide kernel's 32 registers they spill (measured on an
  // H200: 65536x128 from 2954 to 3345 GB/s, and nothing to gain on rows that one block holds).
  if (online::rows_take_pieces_of_4(x, y, cols)) {
    blocked_softmax_kernel<4, kMinBlockThreads, 1><<<blocks, kMinBlockThreads>>>(x, y, rows, cols, lanes);
  } else {
    blocked_softmax_kernel<1, kMinBlockThreads, 1><<<blocks, kMinBlockThreads>>>(x, y, rows, cols, lanes);
  }
}
