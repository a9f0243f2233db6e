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
// Longer rows: one block per row would leave most of the GPU idle (32 rows of a million columns are 32
// blocks on 132 SMs), so each row is cut into chunks of 16384 columns, a block per chunk. A block loads
// its chunk into registers, folds it into the chunk's pair and publishes the pair (one 64-bit store);
// it waits until every pair of its row is published, combines them, and writes its chunk of y from its
// registers. x is read from memory once. A block that waits while no block anywhere publishes (fewer
// blocks run at once than a row has chunks: the simulator on two cores, or rows of many millions of
// columns) computes a missing pair itself, reading that chunk once more: no deadlock, whatever runs.
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
constexpr int kChunkGroups = 4;
constexpr int kChunkCols = kChunkThreads * kChunkGroups * kUnroll;  // 16384 columns, 64 KiB

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

// What the chunk blocks share; zeroed before each launch.
struct ChunkScratch {
  unsigned* published;       // pairs published so far, all rows: while it moves, some block is not waiting
  unsigned* claimed;         // per chunk: 1 once a block has taken on its pair
  unsigned long long* pair;  // per chunk: its pair (m, s) as one 64-bit word; 0 until published
};
// Polls in a row with no pair published anywhere before a waiting block computes a missing pair itself.
constexpr int kPatience = 64;

// A pair in one word, so that one store publishes it whole: no fence, no flag. The word 0 is
// (m, s) = (+0, +0), which no set of values has (its max adds exp(0) = 1 to s): it means "not yet".
__device__ unsigned long long pack(MaxSum p) {
  return __float_as_uint(p.m) | static_cast<unsigned long long>(__float_as_uint(p.s)) << 32;
}
__device__ MaxSum unpack(unsigned long long word) {
  return {__uint_as_float(static_cast<unsigned>(word)), __uint_as_float(static_cast<unsigned>(word >> 32))};
}

// Where chunk `index` lies: its row, the row's first chunk, and its columns.
struct Chunk {
  int index, row, first, begin, length;
};
__device__ Chunk locate(int index, int cols, int chunks_per_row) {
  const int row = index / chunks_per_row, first = row * chunks_per_row;
  const int begin = (index - first) * kChunkCols;
  return {index, row, first, begin, min(kChunkCols, cols - begin)};
}

// Only one block computes and publishes each chunk's pair: the one whose claim comes first.
__device__ bool claim(const ChunkScratch& scratch, int chunk) {
  return atomicExch(scratch.claimed + chunk, 1u) == 0u;
}

__device__ void publish(const ChunkScratch& scratch, int chunk, MaxSum pair) {
  *static_cast<volatile unsigned long long*>(scratch.pair + chunk) = pack(pair);
  atomicAdd(scratch.published, 1u);
}

// Warp 0: waits until every pair of the chunk's row is published and returns -1, with the row's pair in
// `total`. If no pair is published anywhere for a while meanwhile (every running block waits), it claims
// a chunk of the row that nobody has claimed and returns it: the block computes that pair itself. So a
// block only ever waits for blocks that have claimed a chunk, and those publish without waiting: no
// deadlock, however few blocks the GPU (or the simulator) runs at once.
__device__ int await_row(const ChunkScratch& scratch, const Chunk& chunk, int chunks_per_row, MaxSum& total) {
  const int lane = threadIdx.x % kWarp;
  const volatile unsigned long long* pairs = scratch.pair + chunk.first;
  const volatile unsigned* published = scratch.published;
  unsigned seen = *published;
  for (int still = 0;; __nanosleep(100)) {  // the sleep leaves L2 to the loads
    MaxSum acc;
    bool missing = false;
    for (int p = lane; p < chunks_per_row; p += kWarp) {
      const unsigned long long word = pairs[p];
      missing |= word == 0;
      acc = combine(acc, unpack(word));
    }
    if (!__any_sync(0xffffffffu, missing)) {
      total = warp_combine(acc);
      return -1;
    }
    int stolen = -1;
    if (lane == 0) {
      const unsigned now = *published;
      if (now != seen) {
        seen = now;
        still = 0;
      } else if (++still >= kPatience) {
        still = 0;
        for (int other = chunk.first; other < chunk.first + chunks_per_row && stolen < 0; ++other)
          if (claim(scratch, other)) stolen = other;  // its own block will find it claimed
      }
    }
    stolen = __shfl_sync(0xffffffffu, stolen, 0);
    if (stolen >= 0) return stolen;
  }
}

// The row's pair in every thread, once all of the row's pairs are published (computing the missing
// ones the block claimed meanwhile).
__device__ MaxSum row_pair(const ChunkScratch& scratch, const float* row_x, const Chunk& chunk, int cols,
                           int chunks_per_row) {
  __shared__ int stolen;
  __shared__ MaxSum row;
  for (;;) {
    if (threadIdx.x < kWarp) {
      MaxSum total;
      const int other = await_row(scratch, chunk, chunks_per_row, total);
      if (threadIdx.x == 0) stolen = other, row = total;
    }
    __syncthreads();
    const int other = stolen;
    if (other < 0) return row;
    const Chunk missing = locate(other, cols, chunks_per_row);
    MaxSum acc;
    float v[kUnroll];
    for (int base = threadIdx.x; base < missing.length; base += kUnroll * blockDim.x)
      acc = read_group(row_x + missing.begin, base, missing.length, v, acc);
    acc = block_combine(acc);  // its barrier also keeps `stolen` until every thread has read it
    if (threadIdx.x == 0) publish(scratch, other, acc);
  }
}

// Block b holds chunk b of the matrix in registers from its load to its write: x is read once.
__global__ void __launch_bounds__(kChunkThreads, 2)
    chunk_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols, int chunks_per_row,
                         ChunkScratch scratch) {
  const Chunk chunk = locate(blockIdx.x, cols, chunks_per_row);
  const float* row_x = x + static_cast<size_t>(chunk.row) * cols;
  const int stride = kUnroll * blockDim.x;

  // The claim's answer is needed only once the pair is known: its round trip overlaps the loads.
  const bool mine = threadIdx.x == 0 && claim(scratch, chunk.index);
  MaxSum acc;
  float cached[kChunkGroups][kUnroll];
#pragma unroll
  for (int g = 0; g < kChunkGroups; ++g)
    acc = read_group(row_x + chunk.begin, threadIdx.x + g * stride, chunk.length, cached[g], acc);
  acc = block_combine(acc);
  if (mine) publish(scratch, chunk.index, acc);

  const MaxSum total = row_pair(scratch, row_x, chunk, cols, chunks_per_row);
  float* chunk_y = y + static_cast<size_t>(chunk.row) * cols + chunk.begin;
  const float inv_s = 1.0f / total.s;
#pragma unroll
  for (int g = 0; g < kChunkGroups; ++g) {
#pragma unroll
    for (int i = 0; i < kUnroll; ++i) {
      const int c = threadIdx.x + g * stride + i * blockDim.x;
      if (c < chunk.length) chunk_y[c] = __expf(cached[g][i] - total.m) * inv_s;
    }
  }
}

// The scratch, kept between calls: a cudaMalloc and cudaFree per call would cost more than the kernel
// (cudaFree waits for the GPU). Returns false if it cannot be had.
bool chunk_scratch(int chunks, ChunkScratch& scratch) {
  static void* memory = nullptr;
  static size_t capacity = 0;
  // The pairs first, where cudaMalloc's alignment suits 64-bit words; then published, then claimed.
  const size_t bytes =
      static_cast<size_t>(chunks) * sizeof(unsigned long long) + (1 + chunks) * sizeof(unsigned);
  if (bytes > capacity) {
    cudaFree(memory);
    memory = nullptr;
    capacity = 0;
    if (cudaMalloc(&memory, bytes) != cudaSuccess) return false;
    capacity = bytes;
  }
  auto* pairs = static_cast<unsigned long long*>(memory);
  auto* counters = reinterpret_cast<unsigned*>(pairs + chunks);
  scratch = {counters, counters + 1, pairs};
  return cudaMemsetAsync(memory, 0, bytes) == cudaSuccess;
}

void chunk_softmax(const float* x, float* y, int rows, int cols) {
  const int chunks_per_row = (cols + kChunkCols - 1) / kChunkCols;
  const int chunks = rows * chunks_per_row;
  ChunkScratch scratch;
  if (!chunk_scratch(chunks, scratch)) return;  // the failed call is the error the caller sees
  chunk_softmax_kernel<<<chunks, kChunkThreads>>>(x, y, cols, chunks_per_row, scratch);
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
