// Puzzle 3 · Online softmax — version 2: rows in registers, long rows split across blocks.
// Over 1_clear.cu: each thread folds 8 values at a time into its pair (8 loads in flight, one rescale per
// 8 values); the first 16384 columns of a row stay in registers between the passes, and the rest of
// pass 2 runs from the end of the row back (L2 hits); two blocks of 1024 threads per SM; rows longer than
// 32768 columns go to split_long_rows.cuh, which spreads their chunks over the whole GPU.
// The spec is in the stub, 03_online_softmax.cu; the walk-through is the puzzle's docs page.
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
// blocks on 132 SMs), so chunks of each row spread over the whole GPU and wait in shared memory for
// their row's pair. That kernel is in split_long_rows.cuh, which puzzle 4's version 2 shares; the pair's
// rules (MaxSum, combine, block_combine) are in online_pair.cuh.
#include <cuda_runtime.h>

#include <algorithm>

#include "../common/online_pair.cuh"
#include "../common/split_long_rows.cuh"

namespace {

using namespace online;  // MaxSum, combine, block_combine, read_group

constexpr int kRowThreads = 1024;
constexpr int kRowGroups = 2;  // groups of kUnroll values each thread holds: 1024 x 2 x 8 = 16384 columns
constexpr int kRowCachedCols = kRowThreads * kRowGroups * kUnroll;  // 16384: what a block's registers hold
constexpr int kRowMaxCols = 2 * kRowCachedCols;                     // longer rows than this go to chunks

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

}  // namespace

void online_softmax(const float* x, float* y, int rows, int cols) {
  if (cols > kRowMaxCols) {
    split_row_softmax(x, y, rows, cols);
    return;
  }
  // Enough whole warps that their registers hold the row (kRowGroups x kUnroll values a thread), up to 1024.
  const int wanted = (cols + kRowGroups * kUnroll - 1) / (kRowGroups * kUnroll);
  const int threads = std::min(kRowThreads, (wanted + kWarp - 1) / kWarp * kWarp);
  row_softmax_kernel<<<rows, threads>>>(x, y, cols);
}
