// Puzzle 3, stretch · Split rows: online softmax for a few very long rows (docs/03_online_softmax.md).
// Check: ./puzzle check 3 --file solutions/stretch/03_split_rows.cu   Bench: ./puzzle bench 3 --file ...
//
// One block per row leaves the GPU idle when rows are few: 32 rows of a million columns are 32 blocks
// on 132 SMs. Here each row is cut into chunks of kChunkCols columns, one block each (4096 blocks for
// 32 rows of a million), so that every SM gets many blocks whatever the shape:
//   kernel 1: each block folds its chunk into a pair (m, s) with puzzle 3's online recurrence and stores
//             it: 2 floats per chunk, a few KB of scratch for the whole matrix
//   kernel 2: each block merges its row's pairs (any order: the merge is associative and commutative)
//             and writes its chunk of y = exp(x - m) / s.
// x is still read twice. Kernel 2 walks the chunks in the reverse order of kernel 1, so that it starts
// with the chunks kernel 1 read last: those are still in L2 (50 MB on an H100) and cost no HBM traffic.
//
// The test suite checks this file on every case of puzzle 3 (tests/kernels/CMakeLists.txt):
// expect: passed
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kWarp = 32;
constexpr int kThreads = 256;
constexpr int kUnroll = 8;        // loads in flight per thread
constexpr int kChunkCols = 8192;  // 4 steps of kUnroll x kThreads columns: long enough to be worth a block

struct MaxSum {
  float m = -INFINITY;  // max so far
  float s = 0.0f;       // sum of exp(x - m) so far
};

// The pair of the union of two parts; (-inf, 0) is the empty part, and two of them stay empty (not NaN).
__device__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return a;
  return {m, a.s * __expf(a.m - m) + b.s * __expf(b.m - m)};
}

__device__ MaxSum warp_merge(MaxSum v) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2)
    v = merge(v, {__shfl_xor_sync(0xffffffffu, v.m, offset), __shfl_xor_sync(0xffffffffu, v.s, offset)});
  return v;
}

struct Chunk {
  size_t row_start;  // offset of the row in x and y
  int begin, end;    // columns of the chunk
  int pair;          // index of its (m, s) in the scratch
};

__device__ Chunk chunk_of(int block, int chunks, int cols) {
  const int row = block / chunks, begin = block % chunks * kChunkCols;
  return {static_cast<size_t>(row) * cols, begin, min(begin + kChunkCols, cols), block};
}

__global__ void chunk_pairs(const float* __restrict__ x, float* __restrict__ pair_m,
                            float* __restrict__ pair_s, int cols, int chunks) {
  const Chunk chunk = chunk_of(blockIdx.x, chunks, cols);
  const float* row_x = x + chunk.row_start;
  MaxSum acc;
  for (int base = chunk.begin + threadIdx.x; base < chunk.end; base += kUnroll * blockDim.x) {
    float v[kUnroll];
    MaxSum step;
#pragma unroll
    for (int i = 0; i < kUnroll; ++i) {
      const int c = base + i * blockDim.x;
      v[i] = c < chunk.end ? row_x[c] : -INFINITY;
      step.m = fmaxf(step.m, v[i]);
    }
    if (step.m == -INFINITY) continue;
#pragma unroll
    for (int i = 0; i < kUnroll; ++i) step.s += __expf(v[i] - step.m);
    acc = merge(acc, step);
  }
  // Block merge: one pair per warp in shared memory, then the first warp.
  __shared__ float warp_m[kWarp], warp_s[kWarp];
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  acc = warp_merge(acc);
  if (lane == 0) {
    warp_m[warp] = acc.m;
    warp_s[warp] = acc.s;
  }
  __syncthreads();
  if (warp != 0) return;
  acc = warp_merge(lane < blockDim.x / kWarp ? MaxSum{warp_m[lane], warp_s[lane]} : MaxSum{});
  if (lane == 0) {
    pair_m[chunk.pair] = acc.m;
    pair_s[chunk.pair] = acc.s;
  }
}

__global__ void write_chunks(const float* __restrict__ x, float* __restrict__ y,
                             const float* __restrict__ pair_m, const float* __restrict__ pair_s, int cols,
                             int chunks) {
  const Chunk chunk = chunk_of(gridDim.x - 1 - blockIdx.x, chunks, cols);  // last read first: L2 hits
  const int lane = threadIdx.x % kWarp;
  const int first_pair = chunk.pair - chunk.pair % chunks;
  // Every warp merges the row's pairs itself (each lane every 32nd, then the lanes): no shared memory, no
  // barrier. A row of 1,048,576 columns has 128 chunks.
  MaxSum row;
  for (int p = lane; p < chunks; p += kWarp)
    row = merge(row, {pair_m[first_pair + p], pair_s[first_pair + p]});
  row = warp_merge(row);
  const float inv_s = 1.0f / row.s;
#pragma unroll 4
  for (int c = chunk.begin + threadIdx.x; c < chunk.end; c += blockDim.x)
    y[chunk.row_start + c] = __expf(x[chunk.row_start + c] - row.m) * inv_s;
}

// The pairs' scratch, kept between calls: a cudaMalloc and cudaFree per call would cost more than the
// kernels on small matrices (cudaFree waits for the GPU).
float* pair_scratch(size_t floats) {
  static float* scratch = nullptr;
  static size_t capacity = 0;
  if (floats > capacity) {
    cudaFree(scratch);
    scratch = nullptr;
    capacity = 0;
    if (cudaMalloc(&scratch, floats * sizeof(float)) != cudaSuccess) return nullptr;
    capacity = floats;
  }
  return scratch;
}

}  // namespace

void online_softmax(const float* x, float* y, int rows, int cols) {
  const int chunks = (cols + kChunkCols - 1) / kChunkCols;
  const size_t pairs = static_cast<size_t>(rows) * chunks;
  float* scratch = pair_scratch(2 * pairs);
  if (scratch == nullptr) return;  // the failed cudaMalloc is the error the caller sees
  const int blocks = static_cast<int>(pairs);
  chunk_pairs<<<blocks, kThreads>>>(x, scratch, scratch + pairs, cols, chunks);
  write_chunks<<<blocks, kThreads>>>(x, y, scratch, scratch + pairs, cols, chunks);
}
