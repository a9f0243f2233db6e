// Puzzle 3 · Online softmax — reference solution.
// The spec is in puzzles/03_online_softmax.cu; the walk-through is docs/03_online_softmax.md.
//
// One block per row, two passes over x:
//   1. Each thread keeps a running (m, s) over its columns: m its max so far, s = sum of exp(x - m).
//      A bigger value rescales s: s = s * exp(m_old - m_new) + exp(x - m_new). The threads' pairs are
//      then combined, with warp shuffles and one pair per warp in shared memory, into the row's (m, s).
//   2. y = exp(x - m) / s.
// x is read twice and y written once; puzzle 2 reads x a third time to find the max first. Each thread
// also keeps the first kCached groups it reads in registers: a row of up to 1024 x 8 x 2 = 16384 columns
// is then read from memory only once, and pass 2 of a longer row re-reads only the rest.
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kWarp = 32;
constexpr int kMaxThreads = 1024;
constexpr int kUnroll = 8;  // loads in flight per thread, and one rescale per 8 values instead of per value
constexpr int kCached = 2;  // groups of kUnroll values each thread keeps in registers for pass 2

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

// One group of kUnroll columns, base + i * blockDim.x, folded into the running pair. -inf pads the tail:
// it changes neither max nor sum.
__device__ MaxSum read_group(const float* row_x, int base, int cols, float (&v)[kUnroll], MaxSum acc) {
  float group_max = -INFINITY;
#pragma unroll
  for (int i = 0; i < kUnroll; ++i) {
    const int c = base + i * blockDim.x;
    v[i] = c < cols ? row_x[c] : -INFINITY;
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
__global__ void __launch_bounds__(kMaxThreads, 2)
    online_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
  const float* row_x = x + static_cast<size_t>(blockIdx.x) * cols;
  float* row_y = y + static_cast<size_t>(blockIdx.x) * cols;
  const int stride = kUnroll * blockDim.x;

  // Pass 1. Thread t reads columns t, t + B, ... (B = blockDim.x): coalesced. kUnroll values at a time,
  // so that their loads overlap and the running sum is rescaled once per group. The first kCached
  // groups stay in registers (fully unrolled loops, so that `cached` is never indexed at run time).
  MaxSum acc;
  float cached[kCached][kUnroll];
#pragma unroll
  for (int g = 0; g < kCached; ++g) acc = read_group(row_x, threadIdx.x + g * stride, cols, cached[g], acc);
  for (int base = threadIdx.x + kCached * stride; base < cols; base += stride) {
    float v[kUnroll];
    acc = read_group(row_x, base, cols, v, acc);
  }
  const MaxSum row = block_combine(acc);

  // Pass 2: the cached columns from registers, the rest from memory, from the end of the row back: the
  // columns pass 1 read last are the likeliest still in L2.
  const float inv_s = 1.0f / row.s;
#pragma unroll
  for (int g = 0; g < kCached; ++g) {
#pragma unroll
    for (int i = 0; i < kUnroll; ++i) {
      const int c = threadIdx.x + g * stride + i * blockDim.x;
      if (c < cols) row_y[c] = __expf(cached[g][i] - row.m) * inv_s;
    }
  }
  const int first_uncached = kCached * stride;
#pragma unroll 4
  for (int c = cols - 1 - threadIdx.x; c >= first_uncached; c -= blockDim.x)
    row_y[c] = __expf(row_x[c] - row.m) * inv_s;
}

}  // namespace

void online_softmax(const float* x, float* y, int rows, int cols) {
  // Enough whole warps that the registers (kCached groups of kUnroll per thread) hold the row, up to 1024.
  const int wanted = (cols + kCached * kUnroll - 1) / (kCached * kUnroll);
  const int threads = wanted >= kMaxThreads ? kMaxThreads : (wanted + kWarp - 1) / kWarp * kWarp;
  online_softmax_kernel<<<rows, threads>>>(x, y, cols);
}
