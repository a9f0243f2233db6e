// Puzzle 4 · 2D-blocked softmax — reference solution.
// The spec is in puzzles/04_blocked_softmax.cu; the walk-through is docs/04_blocked_softmax.md.
//
// Rows of up to 32768 columns: a group of `lanes` consecutive threads owns one row, and a block is a tile
// of blockDim.x / lanes rows. The launcher picks the fewest lanes (a power of two, 1 to 1024) whose
// registers hold the whole row at kCached values per lane: 2 lanes for a 32-column row (a warp then works
// on 16 rows), 8 for 128 columns; a group wider than a warp is a block of its own, up to 1024 lanes for
// 16384 columns.
//   1. Each lane loads its first kCached columns into registers. Columns beyond those (rows longer than
//      16384) it folds into a running (max, sum) as it streams them: puzzle 3's online recurrence.
//   2. The group agrees on the row's max M (a max reduction), then on its sum (each lane adds
//      exp(x - M) of its registers and its running sum rescaled to M): two plain reductions, cheaper in
//      registers than merging (max, sum) pairs, and registers are what decide how many warps fit.
//   3. y = exp(x - M) / sum, from the registers: a row that fits is read from memory once.
// Reductions use shuffles of width min(lanes, 32), which keep the rows of a warp apart, and, for groups
// wider than a warp, one value per warp through shared memory.
//
// Longer rows: tiles of 1 row x 16384 columns, one block of 1024 lanes each, and every tile is two work
// items for a block. A totals item finds the tile's max and its sum relative to that max, stores them
// and counts them in the row's counter; a write item waits for all the row's totals, merges them into
// the row's (M, sum) and writes its tile of y, reading the tile a second time shortly after the totals
// item did: from L2 rather than HBM. Blocks take items in launch order from a counter, and a row's totals
// items all come before its write items: a write waits only for blocks that are already running.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kWarp = 32;
constexpr int kMinBlockThreads = 256;
constexpr int kMaxLanes = 1024;
constexpr int kCached = 16;  // values per lane, loaded together: all in flight at once
constexpr int kStream = 4;   // values per lane per step beyond the cached ones (few: cached are still live)
constexpr int kTileCols = kMaxLanes * kCached;  // 16384: the widest row a group holds, and a wide tile
constexpr int kWideRowCols = 2 * kTileCols;     // longer rows than this are split into tiles

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

// The kCached values of a lane: columns lane, lane + lanes, ... of `count`; -inf past the end, which
// changes neither max nor sum. Returns their max. Each load instruction of a warp covers whole 32-byte
// sectors, so every byte fetched is used.
__device__ float load_lane(const float* x, int lane, int lanes, int count, float (&v)[kCached]) {
  float lane_max = -INFINITY;
#pragma unroll
  for (int k = 0; k < kCached; ++k) {
    const int c = lane + k * lanes;
    v[k] = c < count ? x[c] : -INFINITY;
    lane_max = fmaxf(lane_max, v[k]);
  }
  return lane_max;
}

// Replaces v by e^(v - max) and returns their sum.
__device__ float exp_and_sum(float (&v)[kCached], float max) {
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < kCached; ++k) {
    v[k] = exp_minus(v[k], max);
    sum += v[k];
  }
  return sum;
}

// A row wider than a warp has a block of up to 1024 threads to itself; two such blocks per SM hide one's
// reductions behind the other's loads, which needs at most 32 registers a thread (kMinBlocks = 2).
// Narrow groups run in blocks of 256 and keep the registers the compiler wants (measured: faster).
template <int kMaxThreads, int kMinBlocks>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
    blocked_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int rows, int cols,
                           int lanes) {
  const int lane = threadIdx.x % lanes;
  const int row = blockIdx.x * (blockDim.x / lanes) + threadIdx.x / lanes;
  const bool in_matrix = row < rows;  // the last tile may hang past the last row
  const float* row_x = x + static_cast<size_t>(row) * cols;
  float* row_y = y + static_cast<size_t>(row) * cols;
  const int cached_cols = kCached * lanes;

  // 1. Lane l owns columns l, l + lanes, ...: each load instruction of a warp covers whole 32-byte
  // sectors of consecutive rows, so every byte fetched is used. -inf pads: it changes neither max nor sum.
  float v[kCached];
  float lane_max = -INFINITY;
#pragma unroll
  for (int k = 0; k < kCached; ++k) {
    const int c = lane + k * lanes;
    v[k] = in_matrix && c < cols ? row_x[c] : -INFINITY;
    lane_max = fmaxf(lane_max, v[k]);
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
  for (int k = 0; k < kCached; ++k) {
    const int c = lane + k * lanes;
    if (c < cols) row_y[c] = v[k] * inv_sum;
  }
  for (int c = cached_cols + lane; c < cols; c += lanes) row_y[c] = __expf(row_x[c] - row_max) * inv_sum;
}

// Shared by the blocks of one wide-row launch; zeroed before it, but the totals.
struct WideRowState {
  unsigned* next_item;   // work items handed out so far
  unsigned* tiles_done;  // per row: how many of its tiles' totals are stored
  float* tile_max;       // per tile: its max and its sum of e^(x - max)
  float* tile_sum;
};

// Work items in the order blocks take them: the totals of the first `lead` tiles, then by turns the
// totals of tile lead + i and the write of tile i, then the last writes. lead >= tiles per row puts a
// row's totals all before its writes.
struct WorkItem {
  bool write;
  int tile;
};
__device__ WorkItem work_item(int taken, int tiles, int lead) {
  if (taken < lead) return {false, taken};
  const int turn = (taken - lead) / 2;
  if (lead + turn >= tiles) return {true, taken - tiles};
  return (taken - lead) % 2 == 0 ? WorkItem{false, lead + turn} : WorkItem{true, turn};
}

// The row's max and sum, in every lane of the calling warp, once all its tiles' totals are stored.
__device__ void row_totals(const WideRowState& state, int row, int tiles_per_row, float& max, float& sum) {
  const int lane = threadIdx.x % kWarp;
  if (lane == 0) {
    const volatile unsigned* done = state.tiles_done + row;
    while (*done < static_cast<unsigned>(tiles_per_row)) __nanosleep(100);  // spare L2 the polling
    __threadfence();  // the totals are read after the count that announced them
  }
  __syncwarp();
  // __ldcg reads from L2: this SM's L1 may hold a stale copy of a line shared with another row's totals.
  const float* maxima = state.tile_max + row * tiles_per_row;
  const float* sums = state.tile_sum + row * tiles_per_row;
  max = -INFINITY;
  for (int t = lane; t < tiles_per_row; t += kWarp) max = fmaxf(max, __ldcg(maxima + t));
  max = group_reduce(max, kWarp, Max{});
  sum = 0.0f;
  for (int t = lane; t < tiles_per_row; t += kWarp)
    sum += __ldcg(sums + t) * exp_minus(__ldcg(maxima + t), max);
  sum = group_reduce(sum, kWarp, Sum{});
}

__global__ void __launch_bounds__(kMaxLanes, 2)
    wide_row_kernel(const float* __restrict__ x, float* __restrict__ y, int cols, int tiles_per_row,
                    int tiles, int lead, WideRowState state) {
  __shared__ int taken;
  if (threadIdx.x == 0) taken = static_cast<int>(atomicAdd(state.next_item, 1u));
  __syncthreads();
  const WorkItem item = work_item(taken, tiles, lead);
  const int row = item.tile / tiles_per_row, first_col = item.tile % tiles_per_row * kTileCols;
  const size_t offset = static_cast<size_t>(row) * cols + first_col;
  const int count = min(kTileCols, cols - first_col);

  if (!item.write) {
    float v[kCached];
    const float max = group_reduce(load_lane(x + offset, threadIdx.x, kMaxLanes, count, v), kMaxLanes, Max{});
    const float sum = group_reduce(exp_and_sum(v, max), kMaxLanes, Sum{});
    if (threadIdx.x == 0) {
      state.tile_max[item.tile] = max;
      state.tile_sum[item.tile] = sum;
      __threadfence();  // the totals are visible before the count that announces them
      atomicAdd(state.tiles_done + row, 1u);
    }
    return;
  }
  float max, sum;
  row_totals(state, row, tiles_per_row, max, sum);
  const float inv_sum = 1.0f / sum;
#pragma unroll
  for (int k = 0; k < kCached; ++k) {
    const int c = threadIdx.x + k * kMaxLanes;
    // Streaming (evict-first) accesses: the tile's last read and y's write should not push out of L2 the
    // tiles still waiting for their write items.
    if (c < count) __stcs(y + offset + c, __expf(__ldcs(x + offset + c) - max) * inv_sum);
  }
}

// The state's memory, kept between calls: a cudaMalloc and cudaFree per call would cost more than the
// kernel (cudaFree waits for the GPU). Returns false if it cannot be had.
bool wide_row_state(int rows, int tiles, WideRowState& state) {
  static void* memory = nullptr;
  static size_t capacity = 0;
  const size_t counters = 1 + static_cast<size_t>(rows);
  const size_t bytes = counters * sizeof(unsigned) + 2 * static_cast<size_t>(tiles) * sizeof(float);
  if (bytes > capacity) {
    cudaFree(memory);
    memory = nullptr;
    capacity = 0;
    if (cudaMalloc(&memory, bytes) != cudaSuccess) return false;
    capacity = bytes;
  }
  auto* counts = static_cast<unsigned*>(memory);
  auto* totals = reinterpret_cast<float*>(counts + counters);
  state = {counts, counts + 1, totals, totals + tiles};
  return cudaMemsetAsync(memory, 0, counters * sizeof(unsigned)) == cudaSuccess;
}

void wide_row_softmax(const float* x, float* y, int rows, int cols) {
  const int tiles_per_row = (cols + kTileCols - 1) / kTileCols;
  const int tiles = rows * tiles_per_row;
  WideRowState state;
  if (!wide_row_state(rows, tiles, state)) return;  // the failed call is the error the caller sees
  // A tile's write item trails its totals item by a row, so that the row's totals all come first, plus
  // half of what the GPU runs at once, so that writes rarely wait (longer lags measured slower: the tile
  // leaves L2 before its second read).
  int device = 0, sms = 0, blocks_per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, wide_row_kernel, kMaxLanes, 0);
  const int lead = std::min(tiles, tiles_per_row + sms * blocks_per_sm / 2);
  wide_row_kernel<<<2 * tiles, kMaxLanes>>>(x, y, cols, tiles_per_row, tiles, lead, state);
}

}  // namespace

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  if (cols > kWideRowCols) {
    wide_row_softmax(x, y, rows, cols);
    return;
  }
  int lanes = 1;
  while (lanes < kMaxLanes && lanes * kCached < cols) lanes *= 2;
  // A group wider than a warp gets a block of its own (group_reduce relies on it).
  const int threads = lanes > kWarp ? lanes : kMinBlockThreads;
  const int rows_per_block = threads / lanes;
  const int blocks = (rows + rows_per_block - 1) / rows_per_block;
  if (lanes > kWarp) {
    blocked_softmax_kernel<kMaxLanes, 2><<<blocks, threads>>>(x, y, rows, cols, lanes);
  } else {
    blocked_softmax_kernel<kMinBlockThreads, 1><<<blocks, threads>>>(x, y, rows, cols, lanes);
  }
}
