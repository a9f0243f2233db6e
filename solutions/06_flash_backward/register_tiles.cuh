// Puzzle 6's register-tile backward: the pieces both fast versions use (2_register_tiles.cu at every d,
// 3_d128_tiles.cu below d = 128). The walk-through is the puzzle's docs page.
//
// Three steps, on one stream:
//   1. dq = 0 (cudaMemsetAsync): the main kernel adds into it.
//   2. delta_kernel: D_i = rowsum(dO_i * O_i), one warp per query row, into a scratch of bh * n_q floats.
//   3. flash_bwd_kernel: one block per (key tile of 64 keys, head). Its K and V tiles stay in shared
//      memory and its dK and dV in registers while it walks the query tiles (64 queries each):
//        S = Q K^T, dP = dO V^T               (64 x 64, each thread a 4 x 4 piece)
//        P = exp(scale S - lse),  dS = P * (dP - D)          (P recomputed: never stored in HBM)
//        dV += P^T dO,  dK += scale dS^T Q   (each thread 4 consecutive keys x D/16 dims, in registers)
//        dq += scale dS K                    (atomicAdd: every key tile adds to the same dq rows)
//      Under the causal mask a key tile starts at the first query tile that sees any of its keys.
// fp32 throughout, no tensor cores. Shared memory rows are padded by 4 floats: 16-byte aligned for
// float4 loads, and consecutive rows start in different banks.
#pragma once
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kSide = 16;         // the block as a 16 x 16 grid of threads, in each phase
constexpr int kTileKeys = 64;     // a block's keys: kSide threads x kPerThread
constexpr int kTileQueries = 64;  // queries per step of the inner loop
constexpr int kPerThread = 4;     // rows (or keys) per thread in each phase: 16 x 4 = 64
constexpr int kScoreStride = kTileKeys + 4;

struct BackwardArgs {
  const float *q, *k, *v, *dout, *lse, *delta;
  float *dq, *dk, *dv;
  int n_q, n_k;
  float scale;
  bool causal;

  // Whether the query sees the key: both exist, and under the causal mask (bottom-right aligned: query
  // i sees keys <= i + n_k - n_q) the key is not after the query.
  __device__ bool sees(int query, int key) const {
    return query < n_q && key < n_k && (!causal || key <= query + (n_k - n_q));
  }
};

template <int D>
struct Tiles {  // one block's shared memory
  static constexpr int kStride = D + 4;
  float q[kTileQueries][kStride];
  float dout[kTileQueries][kStride];
  float k[kTileKeys][kStride];
  float v[kTileKeys][kStride];
  float p[kTileQueries][kScoreStride];
  // scale * dS (the factor dq and dk both need, applied once), stored by key: the dQ product reads 4
  // consecutive queries of a key at once.
  float ds_t[kTileKeys][kScoreStride];
  float lse[kTileQueries];
  float delta[kTileQueries];
};

// A thread's D/16 dims in the dK/dV and dQ phases: chunks of kWidth (up to 4) consecutive dims, the 16
// threads of a row side by side, so that a warp's chunk loads cover contiguous memory.
template <int D>
struct DimChunks {
  static constexpr int kDims = D / kSide;
  static constexpr int kWidth = kDims < 4 ? kDims : 4;
  static constexpr int kChunks = kDims / kWidth;
  static __device__ int first_dim(int column, int chunk) { return (chunk * kSide + column) * kWidth; }
  // kWidth floats from shared memory into out[0 .. kWidth), in one load.
  static __device__ void load(const float* src, float* out) {
    if constexpr (kWidth == 4) {
      const float4 v = *reinterpret_cast<const float4*>(src);
      out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = v.w;
    } else if constexpr (kWidth == 2) {
      const float2 v = *reinterpret_cast<const float2*>(src);
      out[0] = v.x, out[1] = v.y;
    } else {
      out[0] = *src;
    }
  }
  // The thread's dims of one row of a tile: out[chunk * kWidth + i] is dim first_dim(column, chunk) + i.
  static __device__ void load_row(const float* row, int column, float* out) {
#pragma unroll
    for (int chunk = 0; chunk < kChunks; ++chunk) load(row + first_dim(column, chunk), out + chunk * kWidth);
  }
  static __device__ int dim(int column, int i) {
    return first_dim(column, i / kWidth) + i % kWidth;
  }
};

// Four consecutive floats of shared memory (16-byte aligned).
__device__ void load4(const float* src, float out[4]) {
  const float4 v = *reinterpret_cast<const float4*>(src);
  out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = v.w;
}

// acc += a . b as 4 FMAs. (Written a.x * b.x + ... + a.w * b.w, then added to acc, it compiles to a
// multiply, 3 FMAs and an add: the compiler may not reorder float additions.)
__device__ void fma4(float& acc, float4 a, float4 b) {
  acc = fmaf(a.x, b.x, acc);
  acc = fmaf(a.y, b.y, acc);
  acc = fmaf(a.z, b.z, acc);
  acc = fmaf(a.w, b.w, acc);
}

// Rows [first, first + count) of a [n, D] matrix into a tile of kRows rows, zeros past the end (the
// tile's every row is read later, and a row of zeros contributes nothing).
template <int D, int kRows>
__device__ void load_rows(float (*tile)[D + 4], const float* src, int first, int n) {
  constexpr int kVectors = D / 4;
  for (int e = threadIdx.x; e < kRows * kVectors; e += kThreads) {
    const int r = e / kVectors, c = e % kVectors * 4;
    float4 value = make_float4(0, 0, 0, 0);
    if (first + r < n) value = *reinterpret_cast<const float4*>(src + static_cast<size_t>(first + r) * D + c);
    *reinterpret_cast<float4*>(&tile[r][c]) = value;
  }
}

// S = Q K^T and dP = dO V^T at the thread's rows qr + 16a and keys kc + 16b: each loaded row of Q and
// dO meets four keys, each key row four queries.
template <int D>
__device__ void scores_and_dp(const Tiles<D>& t, int qr, int kc, float s[kPerThread][kPerThread],
                              float dp[kPerThread][kPerThread]) {
  for (int a = 0; a < kPerThread; ++a)
    for (int b = 0; b < kPerThread; ++b) s[a][b] = dp[a][b] = 0.0f;
#pragma unroll 4
  for (int c = 0; c < D; c += 4) {
    float4 q[kPerThread], o[kPerThread], k[kPerThread], v[kPerThread];
#pragma unroll
    for (int a = 0; a < kPerThread; ++a) {
      q[a] = *reinterpret_cast<const float4*>(&t.q[qr + kSide * a][c]);
      o[a] = *reinterpret_cast<const float4*>(&t.dout[qr + kSide * a][c]);
      k[a] = *reinterpret_cast<const float4*>(&t.k[kc + kSide * a][c]);
      v[a] = *reinterpret_cast<const float4*>(&t.v[kc + kSide * a][c]);
    }
#pragma unroll
    for (int a = 0; a < kPerThread; ++a) {
#pragma unroll
      for (int b = 0; b < kPerThread; ++b) {
        fma4(s[a][b], q[a], k[b]);
        fma4(dp[a][b], o[a], v[b]);
      }
    }
  }
}

// P and scale * dS of the thread's elements into shared memory. A masked element (past the end, or a
// key after the query under the causal mask) has P = 0: also in rows that see no key, whose lse = -inf
// would make exp() infinite.
template <int D>
__device__ void probabilities(Tiles<D>& t, const BackwardArgs& args, int q0, int k0, int qr, int kc,
                              const float s[kPerThread][kPerThread], const float dp[kPerThread][kPerThread]) {
#pragma unroll
  for (int a = 0; a < kPerThread; ++a) {
    const int r = qr + kSide * a, query = q0 + r;
#pragma unroll
    for (int b = 0; b < kPerThread; ++b) {
      const int j = kc + kSide * b, key = k0 + j;
      const float p = args.sees(query, key) ? __expf(args.scale * s[a][b] - t.lse[r]) : 0.0f;
      const float ds = args.scale * p * (dp[a][b] - t.delta[r]);
      t.p[r][j] = p;
      t.ds_t[j][r] = ds;
    }
  }
}

// dV += P^T dO and dK += (scale dS)^T Q for the thread's keys 4 kr .. 4 kr + 3 and dims DimChunks(dc).
template <int D>
__device__ void accumulate_dk_dv(const Tiles<D>& t, int kr, int dc, float dk[kPerThread][D / kSide],
                                 float dv[kPerThread][D / kSide]) {
  using Dims = DimChunks<D>;
  for (int r = 0; r < kTileQueries; ++r) {
    float p[kPerThread], ds[kPerThread], o[Dims::kDims], q[Dims::kDims];
    load4(&t.p[r][kPerThread * kr], p);
#pragma unroll
    for (int a = 0; a < kPerThread; ++a) ds[a] = t.ds_t[kPerThread * kr + a][r];
    Dims::load_row(t.dout[r], dc, o);
    Dims::load_row(t.q[r], dc, q);
#pragma unroll
    for (int a = 0; a < kPerThread; ++a) {
#pragma unroll
      for (int i = 0; i < Dims::kDims; ++i) {
        dv[a][i] += p[a] * o[i];
        dk[a][i] += ds[a] * q[i];
      }
    }
  }
}

// dq += (scale dS) K for the thread's queries 4 qr .. 4 qr + 3 and dims DimChunks(dc). Other blocks
// (the other key tiles) add to the same dq elements at the same time: atomicAdd, never a plain +=.
template <int D>
__device__ void add_dq(const Tiles<D>& t, const BackwardArgs& args, float* dq_head, int q0, int qr, int dc) {
  using Dims = DimChunks<D>;
  float acc[kPerThread][Dims::kDims] = {};
  for (int j = 0; j < kTileKeys; ++j) {
    float ds[kPerThread], k[Dims::kDims];
    load4(&t.ds_t[j][kPerThread * qr], ds);
    Dims::load_row(t.k[j], dc, k);
#pragma unroll
    for (int a = 0; a < kPerThread; ++a) {
#pragma unroll
      for (int i = 0; i < Dims::kDims; ++i) acc[a][i] += ds[a] * k[i];
    }
  }
#pragma unroll
  for (int a = 0; a < kPerThread; ++a) {
    const int query = q0 + kPerThread * qr + a;
    if (query >= args.n_q) continue;
#pragma unroll
    for (int i = 0; i < Dims::kDims; ++i)
      atomicAdd(&dq_head[static_cast<size_t>(query) * D + Dims::dim(dc, i)], acc[a][i]);
  }
}

template <int D>
__device__ void store_keys(float* dst_head, int k0, int n_k, int kr, int dc,
                           const float acc[kPerThread][D / kSide]) {
  for (int a = 0; a < kPerThread; ++a) {
    const int key = k0 + kPerThread * kr + a;
    if (key >= n_k) continue;
    for (int i = 0; i < D / kSide; ++i)
      dst_head[static_cast<size_t>(key) * D + DimChunks<D>::dim(dc, i)] = acc[a][i];
  }
}

// The first query tile with a query that sees a key of [k0, ...): under the causal mask, query i sees
// key k0 iff i >= k0 - (n_k - n_q). Earlier tiles are fully masked: skipped.
__device__ int first_query_tile(const BackwardArgs& args, int k0) {
  if (!args.causal) return 0;
  const int first_query = k0 - (args.n_k - args.n_q);
  return first_query <= 0 ? 0 : first_query / kTileQueries;
}

// Up to d = 64, at most 128 registers a thread: 2 blocks per SM, as many as the shared memory allows.
template <int D>
__global__ void __launch_bounds__(kThreads, D <= 64 ? 2 : 1) flash_bwd_kernel(BackwardArgs args) {
  extern __shared__ float4 shared_memory[];
  Tiles<D>& t = *reinterpret_cast<Tiles<D>*>(shared_memory);
  const int head = blockIdx.y, k0 = blockIdx.x * kTileKeys;
  const size_t q_head = static_cast<size_t>(head) * args.n_q, k_head = static_cast<size_t>(head) * args.n_k;
  // The 256 threads as a 16 x 16 grid. For S and dP, thread (row, column) takes queries row + 16a and
  // keys column + 16b: a warp's loads of 16 different key rows then fall in different banks. For the
  // products that follow, it takes 4 consecutive keys (or queries) row * 4 + a, read 4 at a time.
  const int row = threadIdx.x / kSide, column = threadIdx.x % kSide;

  load_rows<D, kTileKeys>(t.k, args.k + k_head * D, k0, args.n_k);
  load_rows<D, kTileKeys>(t.v, args.v + k_head * D, k0, args.n_k);
  float dk[kPerThread][D / kSide] = {}, dv[kPerThread][D / kSide] = {};

  for (int q0 = first_query_tile(args, k0) * kTileQueries; q0 < args.n_q; q0 += kTileQueries) {
    load_rows<D, kTileQueries>(t.q, args.q + q_head * D, q0, args.n_q);
    load_rows<D, kTileQueries>(t.dout, args.dout + q_head * D, q0, args.n_q);
    for (int r = threadIdx.x; r < kTileQueries; r += kThreads) {
      const bool inside = q0 + r < args.n_q;
      t.lse[r] = inside ? args.lse[q_head + q0 + r] : 0.0f;
      t.delta[r] = inside ? args.delta[q_head + q0 + r] : 0.0f;
    }
    __syncthreads();

    float s[kPerThread][kPerThread], dp[kPerThread][kPerThread];
    scores_and_dp(t, row, column, s, dp);
    probabilities(t, args, q0, k0, row, column, s, dp);
    __syncthreads();

    accumulate_dk_dv(t, row, column, dk, dv);
    add_dq(t, args, args.dq + q_head * D, q0, row, column);
    __syncthreads();  // the next tile overwrites q, dout, p and ds_t
  }
  store_keys<D>(args.dk + k_head * D, k0, args.n_k, row, column, dk);
  store_keys<D>(args.dv + k_head * D, k0, args.n_k, row, column, dv);
}

// D_i = sum_c dO[i][c] * O[i][c]: one warp per row of the bh * n_q rows.
__global__ void delta_kernel(const float* o, const float* dout, float* delta, int rows, int d) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= rows) return;  // whole warps leave together: no collective is left waiting
  float sum = 0.0f;
  for (int c = lane; c < d; c += 32)
    sum += o[static_cast<size_t>(warp) * d + c] * dout[static_cast<size_t>(warp) * d + c];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0) delta[warp] = sum;
}

// One block per (tile of 64 keys, head), kBlockThreads threads, a SharedTiles of shared memory.
template <class SharedTiles, int kBlockThreads = kThreads>
void launch_main(void (*kernel)(BackwardArgs), const BackwardArgs& args, int bh) {
  const int bytes = sizeof(SharedTiles);
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  const dim3 grid((args.n_k + kTileKeys - 1) / kTileKeys, bh);
  kernel<<<grid, kBlockThreads, bytes>>>(args);
}

// The main kernel at d = 16, 32, 64 or 128.
inline void launch_register_tiles(const BackwardArgs& args, int bh, int d) {
  switch (d) {
    case 16:
      launch_main<Tiles<16>>(flash_bwd_kernel<16>, args, bh);
      break;
    case 32:
      launch_main<Tiles<32>>(flash_bwd_kernel<32>, args, bh);
      break;
    case 64:
      launch_main<Tiles<64>>(flash_bwd_kernel<64>, args, bh);
      break;
    case 128:
      launch_main<Tiles<128>>(flash_bwd_kernel<128>, args, bh);
      break;
  }
}

// Steps 1 and 2 into a scratch of bh * n_q floats, then step 3 as `launch_main_kernel(args)` says.
template <class LaunchMainKernel>
void flash_bwd_steps(const float* q, const float* k, const float* v, const float* o, const float* lse,
                     const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
                     float scale, bool causal, LaunchMainKernel launch_main_kernel) {
  const int rows = bh * n_q;
  float* delta = nullptr;
  cudaMalloc(&delta, sizeof(float) * rows);
  cudaMemsetAsync(dq, 0, sizeof(float) * rows * d);
  delta_kernel<<<(rows + 7) / 8, 256>>>(o, dout, delta, rows, d);
  launch_main_kernel(BackwardArgs{q, k, v, dout, lse, delta, dq, dk, dv, n_q, n_k, scale, causal});
  cudaFree(delta);
}

}  // namespace
