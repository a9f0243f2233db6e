// Puzzle 3 · Online softmax — reference solution.
// The spec is in puzzles/03_online_softmax.cu; the walk-through is docs/03_online_softmax.md.
//
// The online recurrence: a running (m, s), m the max so far and s = sum of exp(x - m). A bigger value
// rescales s: s = s * exp(m_old - m_new) + exp(x - m_new). Two pairs combine the same way, in any order.
// Then y = exp(x - m) / s. Two layouts:
//
// Rows of up to 32768 columns: one block per row, x read twice. Each thread folds its columns into a
// pair, the block combines the threads' pairs (warp shuffles, one pair per warp in shared memory), and
// the second pass writes y. The first 16384 columns of a row stay in registers (1024 threads x 16), so
// pass 2 reads from memory only the rest, which the block read microseconds before: an L2 hit.
//
// Longer rows (up to 4 MiB): one block per row would leave most of the GPU idle (32 rows of a million
// columns are 32 blocks on 132 SMs), so each row is cut into chunks of 8192 columns, and each chunk is
// two work items for a block:
//   pair item:  fold the chunk into its (m, s), store the pair and count it in the row's ready counter
//   write item: wait until the row's pairs are all there, combine them, write the chunk of y
// The write item reads its chunk a second time shortly after its pair item did, from L2 rather than
// HBM. Blocks take items in launch order from a counter, pair items ahead of the writes that need them,
// so a write only ever waits for blocks that are already running: no deadlock, whatever the GPU runs at
// once (and the same on the simulator).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kWarp = 32;
constexpr int kRowThreads = 1024;
constexpr int kUnroll = 8;  // loads in flight per thread, and one rescale per 8 values instead of per value
constexpr int kRowGroups = 2;  // groups of kUnroll values each thread holds: 1024 x 2 x 8 = 16384 columns
constexpr int kRowCachedCols = kRowThreads * kRowGroups * kUnroll;  // 16384: what a block's registers hold
constexpr int kRowMaxCols = 2 * kRowCachedCols;                     // longer rows than this go to chunks
constexpr int kChunkThreads = 512;
constexpr int kChunkGroups = 2;
constexpr int kChunkCols = kChunkThreads * kChunkGroups * kUnroll;  // 8192 columns, 32 KiB

// The max of some values and the sum of exp(value - m) over them. (-inf, 0) is the empty set.
struct MaxSum {
  float m = -INFINITY;
  float s = 0.0f;
};

// exp(from - to) * s, with from <= to: what a sum relative to `from` becomes relative to `to`.
// While nothing but -inf has been seen, from == to == -inf and exp(-inf - -inf) would be NaN.
__device__ float rescale(float s, float from, float to) {
  return from == -INFINITY ? 0.0f : s * __expf(from - to);
}

// The pair of the union of two sets of values. Commutative and associative, so any tree works.
__device__ MaxSum combine(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  return {m, rescale(a.s, a.m, m) + rescale(b.s, b.m, m)};
}

__device__ MaxSum warp_combine(MaxSum v) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2)
    v = combine(v, {__shfl_xor_sync(0xffffffffu, v.m, offset), __shfl_xor_sync(0xffffffffu, v.s, offset)});
  return v;
}

// Every thread of the block gets the combination of all threads' pairs.
__device__ MaxSum block_combine(MaxSum v) {
  __shared__ float warp_m[kWarp], warp_s[kWarp];
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  const int warps = (blockDim.x + kWarp - 1) / kWarp;

  v = warp_combine(v);
  if (lane == 0) {
    warp_m[warp] = v.m;
    warp_s[warp] = v.s;
  }
  __syncthreads();
  return warp_combine(lane < warps ? MaxSum{warp_m[lane], warp_s[lane]} : MaxSum{});
}

// One group of kUnroll columns, base + i * blockDim.x of the cols in `x`, into v and folded into the
// running pair: kUnroll loads in flight at once. -inf pads the tail: it changes neither max nor sum.
__device__ MaxSum read_group(const float* x, int base, int cols, float (&v)[kUnroll], MaxSum acc) {
  float group_max = -INFINITY;
#pragma unroll
  for (int i = 0; i < kUnroll; ++i) {
    const int c = base + i * blockDim.x;
    v[i] = c < cols ? x[c] : -INFINITY;
    group_max = fmaxf(group_max, v[i]);
  }
  const float m = fmaxf(acc.m, group_max);
  if (m == -INFINITY) return acc;  // only -inf so far: (-inf, 0) is still right
  float s = rescale(acc.s, acc.m, m);
#pragma unroll
  for (int i = 0; i < kUnroll; ++i) s += __expf(v[i] - m);
  return {m, s};
}

// Two blocks of 1024 threads per SM: at most 32 registers each. With one block per SM, each SM would wait
// idle for its block's reductions between the loads and the stores (measured: 61% -> 78% of copy bandwidth).
__global__ void __launch_bounds__(kRowThreads, 2)
    row_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
  const float* row_x = x + static_cast<size_t>(blockIdx.x) * cols;
  float* row_y = y + static_cast<size_t>(blockIdx.x) * cols;
  const int stride = kUnroll * blockDim.x;

  // Pass 1. Thread t reads columns t, t + B, ... (B = blockDim.x): coalesced. kUnroll values at a time,
  // so that their loads overlap and the running sum is rescaled once per group. The first kRowGroups
  // groups stay in registers (fully unrolled loops, so that `cached` is never indexed at run time).
  MaxSum acc;
  float cached[kRowGroups][kUnroll];
#pragma unroll
  for (int g = 0; g < kRowGroups; ++g)
    acc = read_group(row_x, threadIdx.x + g * stride, cols, cached[g], acc);
  for (int base = threadIdx.x + kRowGroups * stride; base < cols; base += stride) {
    float v[kUnroll];
    acc = read_group(row_x, base, cols, v, acc);
  }
  const MaxSum row = block_combine(acc);

  // Pass 2: the cached columns from registers, the rest from memory, from the end of the row back: the
  // columns pass 1 read last are the likeliest still in L2.
  const float inv_s = 1.0f / row.s;
#pragma unroll
  for (int g = 0; g < kRowGroups; ++g) {
#pragma unroll
    for (int i = 0; i < kUnroll; ++i) {
      const int c = threadIdx.x + g * stride + i * blockDim.x;
      if (c < cols) row_y[c] = __expf(cached[g][i] - row.m) * inv_s;
    }
  }
  const int first_uncached = kRowGroups * stride;
#pragma unroll 4
  for (int c = cols - 1 - threadIdx.x; c >= first_uncached; c -= blockDim.x)
    row_y[c] = __expf(row_x[c] - row.m) * inv_s;
}

// What the chunk items share between blocks; zeroed before each launch but the pairs.
struct ChunkScratch {
  unsigned* next_item;  // items handed out so far
  unsigned* ready;      // per row: how many of its chunks' pairs are stored
  float* pair_m;        // per chunk, its pair
  float* pair_s;
};

// Items in the order blocks take them: the pairs of the first `lag` chunks, then the pair of chunk
// lag + i and the write of chunk i by turns, then the last writes. With lag >= chunks per row, the
// pairs of a write's row all come before it.
struct WorkItem {
  bool write;
  int chunk;
};
__device__ WorkItem work_item(int position, int chunks, int lag) {
  if (position < lag) return {false, position};
  const int step = position - lag, i = step / 2;
  if (lag + i < chunks) return step % 2 == 0 ? WorkItem{false, lag + i} : WorkItem{true, i};
  return {true, position - chunks};
}

// The row's pair, in every lane of the calling warp, once all its chunks' pairs are stored.
__device__ MaxSum wait_for_row(const ChunkScratch& scratch, int row, int chunks_per_row) {
  const int lane = threadIdx.x % kWarp;
  if (lane == 0) {
    const volatile unsigned* ready = scratch.ready + row;
    while (*ready < static_cast<unsigned>(chunks_per_row)) __nanosleep(100);  // polls spare L2
    __threadfence();  // the pairs are read after the count that announced them
  }
  __syncwarp();
  MaxSum acc;
  const int first = row * chunks_per_row;
  for (int p = lane; p < chunks_per_row; p += kWarp)  // __ldcg: from L2, never a stale line of this SM's L1
    acc = combine(acc, {__ldcg(scratch.pair_m + first + p), __ldcg(scratch.pair_s + first + p)});
  return warp_combine(acc);
}

__global__ void __launch_bounds__(kChunkThreads)
    chunk_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols, int chunks_per_row,
                         int chunks, int lag, ChunkScratch scratch) {
  __shared__ int position;
  if (threadIdx.x == 0) position = static_cast<int>(atomicAdd(scratch.next_item, 1u));
  __syncthreads();
  const WorkItem item = work_item(position, chunks, lag);
  const int row = item.chunk / chunks_per_row, begin = item.chunk % chunks_per_row * kChunkCols;
  const size_t offset = static_cast<size_t>(row) * cols + begin;
  const int length = min(kChunkCols, cols - begin);
  const int stride = kUnroll * blockDim.x;

  if (!item.write) {
    MaxSum acc;
    float v[kUnroll];
#pragma unroll
    for (int g = 0; g < kChunkGroups; ++g)
      acc = read_group(x + offset, threadIdx.x + g * stride, length, v, acc);
    acc = block_combine(acc);
    if (threadIdx.x == 0) {
      scratch.pair_m[item.chunk] = acc.m;
      scratch.pair_s[item.chunk] = acc.s;
      __threadfence();  // the pair is visible before the count that announces it
      atomicAdd(scratch.ready + row, 1u);
    }
    return;
  }
  const MaxSum total = wait_for_row(scratch, row, chunks_per_row);
  const float inv_s = 1.0f / total.s;
#pragma unroll
  for (int i = 0; i < kChunkGroups * kUnroll; ++i) {
    const int c = threadIdx.x + i * blockDim.x;
    // The chunk's last read and y's write are streaming accesses (evict first): let them not push out of
    // L2 the chunks still waiting for their write items.
    if (c < length) __stcs(y + offset + c, __expf(__ldcs(x + offset + c) - total.m) * inv_s);
  }
}

// The scratch, kept between calls: a cudaMalloc and cudaFree per call would cost more than the kernel
// (cudaFree waits for the GPU). Returns false if it cannot be had.
bool chunk_scratch(int rows, int chunks, ChunkScratch& scratch) {
  static void* memory = nullptr;
  static size_t capacity = 0;
  const size_t counters = 1 + static_cast<size_t>(rows);
  const size_t bytes = counters * sizeof(unsigned) + 2 * static_cast<size_t>(chunks) * sizeof(float);
  if (bytes > capacity) {
    cudaFree(memory);
    memory = nullptr;
    capacity = 0;
    if (cudaMalloc(&memory, bytes) != cudaSuccess) return false;
    capacity = bytes;
  }
  auto* words = static_cast<unsigned*>(memory);
  auto* pairs = reinterpret_cast<float*>(words + counters);
  scratch = {words, words + 1, pairs, pairs + chunks};
  return cudaMemsetAsync(memory, 0, counters * sizeof(unsigned)) == cudaSuccess;
}

void chunk_softmax(const float* x, float* y, int rows, int cols) {
  const int chunks_per_row = (cols + kChunkCols - 1) / kChunkCols;
  const int chunks = rows * chunks_per_row;
  ChunkScratch scratch;
  if (!chunk_scratch(rows, chunks, scratch)) return;  // the failed call is the error the caller sees
  // The lag between a chunk's pair item and its write: a row, so that a write's pairs all come before it,
  // plus half of what the GPU runs at once, so that writes rarely wait. Longer lags measured slower: more
  // data passes through L2 between a chunk's two reads, and the second read misses.
  int device = 0, sms = 0, blocks_per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, chunk_softmax_kernel, kChunkThreads, 0);
  const int lag = std::min(chunks, chunks_per_row + sms * blocks_per_sm / 2);
  chunk_softmax_kernel<<<2 * chunks, kChunkThreads>>>(x, y, cols, chunks_per_row, chunks, lag, scratch);
}

}  // namespace

void online_softmax(const float* x, float* y, int rows, int cols) {
  if (cols > kRowMaxCols) {
    chunk_softmax(x, y, rows, cols);
    return;
  }
  // Enough whole warps that their registers hold the row (kRowGroups x kUnroll values a thread), up to 1024.
  const int wanted = (cols + kRowGroups * kUnroll - 1) / (kRowGroups * kUnroll);
  const int threads = std::min(kRowThreads, (wanted + kWarp - 1) / kWarp * kWarp);
  row_softmax_kernel<<<rows, threads>>>(x, y, cols);
}
