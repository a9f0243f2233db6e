// Puzzle 6's d = 128 kernel, used by 3_d128_tiles.cu; the walk-through is the puzzle's docs page.
//
// Shared memory hands an SM 128 bytes (32 floats) per cycle, and the SM does 128 FMAs per cycle: a
// thread that does fewer than 4 FMAs per float it reads from shared memory waits on shared memory. The
// kernel above does 2 (a 4 x 4 tile: 16 FMAs per 8 floats); at d = 128, where every product is twice as
// long, that leaves it at about a third of the GPU's peak. This kernel gives each thread 8 x 8 tiles
// (64 FMAs per 16 floats). Those take 64 registers each, and dK and dV (64 keys x 128 dims each) take
// another 64 per thread: 256 threads, 1 block per SM. With 64 x 64 tiles and 256 threads there are not
// enough elements for every thread to hold an 8 x 8 tile of every product, so the warps
// (w = threadIdx.x / 32) share the work of a step:
//   phase 1  S (warps 0-3) and dP (warps 4-7), each a sum over the 128 dims, split in two: warps 0-1 and
//            4-5 sum dims 0-63, warps 2-3 and 6-7 dims 64-127. Each thread sums an 8 x 8 tile.
//   phase 2  the four groups of 64 threads swap their partial sums through shared memory: each thread
//            finishes 16 elements, adding the 4 partial sums of each into S and dP, and makes P and
//            scale * dS = scale * P * (dP - D).
//   phase 3  dV += P^T dO (warps 0-3) and dK += (scale dS)^T Q (warps 4-7): each thread 8 keys x 8 dims.
//   phase 4  dq += (scale dS) K (all warps): each thread 4 queries x 8 dims, summed over the 64 keys.
// The next step's Q and dO travel from L2 into registers during phase 3, and into shared memory once
// every thread is done with this step's.
#pragma once
#include "register_tiles.cuh"

namespace {

namespace d128 {

constexpr int D = 128;
constexpr int kHalf = D / 2;
constexpr int kStride = D + 4;
constexpr int kGroups = 4;  // of 64 threads, in phases 1-2: S over dims 0-63, S over 64-127, dP, dP
// Score tiles by query: padded by 8 (not 4), so that a warp's scalar accesses in phase 2 (4 queries x 8
// keys) fall in 32 different banks. dS by key keeps kScoreStride: there a warp has 8 keys x 4 queries.
constexpr int kPStride = kTileKeys + 8;

struct Tiles {  // one block's shared memory, 222 KB
  float q[kTileQueries][kStride];
  float dout[kTileQueries][kStride];
  float k[kTileKeys][kStride];
  float v[kTileKeys][kStride];
  // Phase 2: each group's partial sums of S or dP. Then sums[0] holds P and sums[1] scale * dS.
  float sums[kGroups][kTileQueries][kPStride];
  float ds_t[kTileKeys][kScoreStride];  // scale * dS again, by key
  float lse[kTileQueries];
  float delta[kTileQueries];
};

__device__ float4 load_float4(const float* src) {
  return *reinterpret_cast<const float4*>(src);
}

// dst[0 .. 3] += v in global memory, atomically. sm_90 has a float4 atomicAdd: one instruction for 4.
__device__ void atomic_add4(float* dst, float4 v) {
#if __CUDA_ARCH__ >= 900
  atomicAdd(reinterpret_cast<float4*>(dst), v);
#else
  atomicAdd(dst, v.x), atomicAdd(dst + 1, v.y), atomicAdd(dst + 2, v.z), atomicAdd(dst + 3, v.w);
#endif
}

// The three products below load the operands of their next step while they compute the current one:
// shared memory answers a load after some 30 cycles (more when it is busy), and with 2 warps per
// scheduler there is little else to do meanwhile. Each loop does two steps per iteration, so that the
// two sets of operand registers swap roles without copies, and its last step loads the first step's
// operands again, unused: a load skipped under a condition would keep its registers alive across the
// whole kernel.

// Phase 1: acc[i][j] = rows[row + 8i] . cols[col + 8j] over the dims [d0, d0 + 64). In a quarter warp
// (8 lanes: the same row, 8 consecutive cols) the row loads are one broadcast and the col loads 8
// different rows, in 8 different bank groups.
__device__ void partial_products(const float (*rows)[kStride], const float (*cols)[kStride], int row, int col,
                                 int d0, float acc[8][8]) {
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
  // Dims c .. c + 3 with the cols in b; the rows come two ahead, through a and a1.
  auto step = [&](int c, float4& a, float4& a1, const float4 b[8], float4 next_b[8]) {
    const int next_c = c + 4 < d0 + kHalf ? c + 4 : d0;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const float4 a2 = load_float4(&rows[row + 8 * ((i + 2) % 8)][i < 6 ? c : next_c]);
      next_b[i] = load_float4(&cols[col + 8 * i][next_c]);
#pragma unroll
      for (int j = 0; j < 8; ++j) fma4(acc[i][j], a, b[j]);
      a = a1;
      a1 = a2;
    }
  };
  float4 a = load_float4(&rows[row][d0]), a1 = load_float4(&rows[row + 8][d0]), b0[8], b1[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) b0[j] = load_float4(&cols[col + 8 * j][d0]);
  for (int c = d0; c < d0 + kHalf; c += 8) {
    step(c, a, a1, b0, b1);
    step(c + 4, a, a1, b1, b0);
  }
}

// Phase 3: grad[a][n] += sum over the tile's queries r of weights[r][key0 + a] * rows[r][dim(n)], where
// dim(n) = dim0 + n for n < 4 and kHalf + dim0 + n - 4 for n >= 4. The 16 threads of a half warp read
// 16 consecutive float4s of a row of dO (or Q), the weights of their keys in one broadcast.
__device__ void accumulate_keys(const float (*weights)[kPStride], const float (*rows)[kStride], int key0,
                                int dim0, float grad[8][8]) {
  auto load = [&](int r, float w[8], float x[8]) {
    load4(&weights[r][key0], w);
    load4(&weights[r][key0 + 4], w + 4);
    load4(&rows[r][dim0], x);
    load4(&rows[r][kHalf + dim0], x + 4);
  };
  auto step = [&](const float w[8], const float x[8]) {
#pragma unroll
    for (int a = 0; a < 8; ++a)
#pragma unroll
      for (int n = 0; n < 8; ++n) grad[a][n] = fmaf(w[a], x[n], grad[a][n]);
  };
  float w0[8], x0[8], w1[8], x1[8];
  load(0, w0, x0);
#pragma unroll 2
  for (int r = 0; r < kTileQueries; r += 2) {
    load(r + 1, w1, x1);
    step(w0, x0);
    load(r + 2 < kTileQueries ? r + 2 : 0, w0, x0);
    step(w1, x1);
  }
}

// Phase 4: dq += (scale dS) K for the queries query0 .. query0 + 3 and the dims dim(n) of phase 3. Other
// blocks add to the same dq elements at the same time: atomics.
__device__ void add_dq(const Tiles& t, const BackwardArgs& args, float* dq_head, int q0, int query0,
                       int dim0) {
  // Two keys per step.
  auto load = [&](int j, float ds[2][4], float k[2][8]) {
#pragma unroll
    for (int u = 0; u < 2; ++u) {
      load4(&t.ds_t[j + u][query0], ds[u]);
      load4(&t.k[j + u][dim0], k[u]);
      load4(&t.k[j + u][kHalf + dim0], k[u] + 4);
    }
  };
  float acc[4][8] = {};
  auto step = [&](const float ds[2][4], const float k[2][8]) {
#pragma unroll
    for (int u = 0; u < 2; ++u)
#pragma unroll
      for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int n = 0; n < 8; ++n) acc[a][n] = fmaf(ds[u][a], k[u][n], acc[a][n]);
  };
  float ds0[2][4], k0[2][8], ds1[2][4], k1[2][8];
  load(0, ds0, k0);
  for (int j = 0; j < kTileKeys; j += 4) {
    load(j + 2, ds1, k1);
    step(ds0, k0);
    load(j + 4 < kTileKeys ? j + 4 : 0, ds0, k0);
    step(ds1, k1);
  }
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    const int query = q0 + query0 + a;
    if (query >= args.n_q) continue;
    float* row = dq_head + static_cast<size_t>(query) * D + dim0;
    atomic_add4(row, make_float4(acc[a][0], acc[a][1], acc[a][2], acc[a][3]));
    atomic_add4(row + kHalf, make_float4(acc[a][4], acc[a][5], acc[a][6], acc[a][7]));
  }
}

// A tile of Q and dO on its way from global to shared memory, in registers: in pass m, the block's
// threads read rows 8m .. 8m + 7, a warp per row, a float4 per thread. Also lse (threads 0-63) or D
// (threads 64-127) of one query. Rows past n_q read row n_q - 1 instead (the loads stay unconditional,
// which keeps them cheap), and the stash stores zeros for them.
constexpr int kRowsPerPass = kThreads / (D / 4);
constexpr int kVectorsPerThread = kTileQueries / kRowsPerPass;
struct QueryTileInFlight {
  float4 q[kVectorsPerThread], dout[kVectorsPerThread];
  float stat;
};

__device__ void fetch_query_tile(const BackwardArgs& args, size_t q_head, int q0, QueryTileInFlight& tile) {
  const float *q = args.q + q_head * D, *dout = args.dout + q_head * D;
#pragma unroll
  for (int m = 0; m < kVectorsPerThread; ++m) {
    const int r = static_cast<int>(threadIdx.x / (D / 4)) + kRowsPerPass * m;
    const int offset = min(q0 + r, args.n_q - 1) * D + threadIdx.x % (D / 4) * 4;
    tile.q[m] = *reinterpret_cast<const float4*>(q + offset);
    tile.dout[m] = *reinterpret_cast<const float4*>(dout + offset);
  }
  const int r = min(q0 + static_cast<int>(threadIdx.x % kTileQueries), args.n_q - 1);
  tile.stat = (threadIdx.x < kTileQueries ? args.lse : args.delta)[q_head + r];
}

__device__ void stash_query_tile(Tiles& t, int q0, int n_q, const QueryTileInFlight& tile) {
  const float4 zeros = make_float4(0, 0, 0, 0);
#pragma unroll
  for (int m = 0; m < kVectorsPerThread; ++m) {
    const int r = threadIdx.x / (D / 4) + kRowsPerPass * m, c = threadIdx.x % (D / 4) * 4;
    const bool inside = q0 + r < n_q;
    *reinterpret_cast<float4*>(&t.q[r][c]) = inside ? tile.q[m] : zeros;
    *reinterpret_cast<float4*>(&t.dout[r][c]) = inside ? tile.dout[m] : zeros;
  }
  const int r = threadIdx.x % kTileQueries;
  const float stat = q0 + r < n_q ? tile.stat : 0.0f;
  if (threadIdx.x < kTileQueries)
    t.lse[r] = stat;
  else if (threadIdx.x < 2 * kTileQueries)
    t.delta[r] = stat;
}

__global__ void __launch_bounds__(kThreads, 1) flash_bwd_kernel(BackwardArgs args) {
  extern __shared__ float4 shared_memory[];
  Tiles& t = *reinterpret_cast<Tiles*>(shared_memory);
  float(*p)[kPStride] = t.sums[0];   // after phase 2
  float(*ds)[kPStride] = t.sums[1];  // after phase 2
  const int head = blockIdx.y, k0 = blockIdx.x * kTileKeys;
  const size_t q_head = static_cast<size_t>(head) * args.n_q, k_head = static_cast<size_t>(head) * args.n_k;
  // Phases 1-2: the thread's group, and its rows (queries) tq + 8i and keys tk + 8j, i, j < 8. In phase 2
  // it finishes rows i = 2 group and 2 group + 1 of them.
  const int group = threadIdx.x / 64, tq = threadIdx.x % 64 / 8, tk = threadIdx.x % 8;
  const bool dp_side = group >= 2;  // dP in phase 1, dK in phase 3
  // Phases 3-4: 16 threads side by side cover a row's 128 dims, a float4 in each half (dim0 and
  // kHalf + dim0); their keys (phase 3) or queries (phase 4) are 8 (or 4) consecutive ones from key0
  // (query0).
  const int key0 = threadIdx.x % 128 / 16 * 8, query0 = threadIdx.x / 16 * 4, dim0 = threadIdx.x % 16 * 4;

  load_rows<D, kTileKeys>(t.k, args.k + k_head * D, k0, args.n_k);
  load_rows<D, kTileKeys>(t.v, args.v + k_head * D, k0, args.n_k);
  float grad[8][8] = {};  // dV (warps 0-3) or dK (warps 4-7) of keys k0 + key0 + a, dims dim(n)

  int q0 = first_query_tile(args, k0) * kTileQueries;
  if (q0 < args.n_q) {
    QueryTileInFlight first;
    fetch_query_tile(args, q_head, q0, first);
    stash_query_tile(t, q0, args.n_q, first);
  }
  for (; q0 < args.n_q; q0 += kTileQueries) {
    __syncthreads();  // this step's Q, dO, lse and D are in; the previous step's phase 4 is done with dS

    float acc[8][8];  // phase 1
    partial_products(dp_side ? t.dout : t.q, dp_side ? t.v : t.k, tq, tk, group % 2 * kHalf, acc);

    // Phase 2. P is 0 where masked: past the ends, above the diagonal, and in rows with lse = -inf.
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j) t.sums[group][tq + 8 * i][tk + 8 * j] = acc[i][j];
    __syncthreads();
    {
      const int r0 = tq + 16 * group;  // the thread finishes rows r0 and r0 + 8, keys tk + 8j
      float s[2][8], dp[2][8];         // all the loads first, then the arithmetic
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const int r = r0 + 8 * i, c = tk + 8 * j;
          s[i][j] = t.sums[0][r][c] + t.sums[1][r][c];
          dp[i][j] = t.sums[2][r][c] + t.sums[3][r][c];
        }
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const int r = r0 + 8 * i, query = q0 + r;
        const float lse = t.lse[r], delta = t.delta[r];
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const int c = tk + 8 * j, key = k0 + c;
          const float exp_s = __expf(args.scale * s[i][j] - lse);  // inf if lse = -inf
          const float p_rc = args.sees(query, key) ? exp_s : 0.0f;
          const float ds_rc = args.scale * p_rc * (dp[i][j] - delta);
          p[r][c] = p_rc;
          ds[r][c] = ds_rc;
          t.ds_t[c][r] = ds_rc;
        }
      }
    }
    __syncthreads();

    // Phase 3, while the next step's Q and dO are on their way (after the last step: a tile past the end,
    // stored as zeros and never read; skipping it under a condition would keep its 65 registers alive
    // across the whole loop).
    QueryTileInFlight next;
    fetch_query_tile(args, q_head, q0 + kTileQueries, next);
    accumulate_keys(dp_side ? ds : p, dp_side ? t.q : t.dout, key0, dim0, grad);
    __syncthreads();
    stash_query_tile(t, q0 + kTileQueries, args.n_q, next);

    add_dq(t, args, args.dq + q_head * D, q0, query0, dim0);  // phase 4
  }

  float* grad_head = (dp_side ? args.dk : args.dv) + k_head * D;
#pragma unroll
  for (int a = 0; a < 8; ++a) {
    const int key = k0 + key0 + a;
    if (key >= args.n_k) continue;
    float* row = grad_head + static_cast<size_t>(key) * D;
    *reinterpret_cast<float4*>(row + dim0) = make_float4(grad[a][0], grad[a][1], grad[a][2], grad[a][3]);
    *reinterpret_cast<float4*>(row + kHalf + dim0) =
        make_float4(grad[a][4], grad[a][5], grad[a][6], grad[a][7]);
  }
}

}  // namespace d128

}  // namespace
