// Puzzle 6's tensor-core backward (3xTF32): version 4's kernel, which versions 4 to 6 run up to d = 64, and
// the steps that the d = 128 kernel of versions 5 and 6 (d128_split_queries.cuh) shares with it. The
// walk-through is the puzzle's docs page.
//
// A block owns 64 keys of a head, 16 keys a warp: the rows of one m16n8k8 A fragment, so that the
// products are taken transposed, keys first. Lane (g, t) = (lane / 4, lane % 4) holds keys g and g + 8 of
// its warp. Per tile of 64 queries:
//   1. copy the Q and dO tiles (cp.async), lse (times log2(e)) and D;
//   2. S^T = K Q^T and dP^T = V dO^T: 16 keys x 64 queries per warp, d / 8 steps of k = 8, 3 mma each;
//   3. P^T = exp(scale S^T - lse) (0 where masked) and scale dS^T = scale P^T * (dP^T - D), in registers,
//      and scale dS^T into shared memory for dq;
//   4. dV += P^T dO and dK += scale dS^T Q: P^T's and dS^T's accumulator fragments are A fragments as they
//      stand (three_tf32.cuh), dO's and Q's rows read in the same order of queries;
//   5. every warp's dS^T stored: dq += scale dS K for the warp's 16 queries of the tile, all 64 keys,
//      added with atomicAdd (every key tile adds into the same dq rows).
// Shared memory: K, V, Q and dO tiles of 64 rows, D + 4 floats apart, and dS^T 68 floats apart, so that
// every fragment read hits 32 distinct banks (dS^T's float2 stores take 2 extra wavefronts: 16 a tile, little
// beside its 1500 mma); 88 KB at d = 64, 2 blocks an SM.
// At d = 128 the same layout takes 153 KB and 255 registers a thread: one block of 4 warps an SM, too few
// to hide the mma's latency; it ran at 57-59% of version 3's kernel's speed, so version 4 runs that one
// there, and version 5 a kernel of 8 warps (5_d128_split_queries.cu, d128_split_queries.cuh).
#pragma once
#include "../common/async_rows.cuh"
#include "../common/three_tf32.cuh"
#include "register_tiles.cuh"

namespace tensor_cores {

constexpr int kKeys = kTileKeys;        // a block's keys, 16 per warp (launch_main's grid counts in these)
constexpr int kQueries = kTileQueries;  // queries per step of the walk (first_query_tile() counts in these)
constexpr int kDsStride = kQueries + 4;
constexpr float kLog2e = 1.4426950408889634f;
template <int D>
constexpr int kStride = D + 4;  // floats between the rows of a K, V, Q or dO tile

// How a kernel reads the K, V, Q and dO fragments of S^T and dP^T (an A fragment of 16 rows, and the B
// fragments of kBSlices 8-row slices, from rows `stride` floats apart) and how its products split their
// operands into tf32 pairs (three_tf32.cuh): S^T's and dP^T's as kScoresSplit says, those of the three that
// sum the gradients (dV, dK, dq) as kGradientSplit says. Versions 4 and 5: a float a load, every split
// rounded. Version 6's: truncated_split_ldmatrix.cuh.
struct ScalarLoadsRoundedSplit {
  static constexpr Tf32Split kScoresSplit = Tf32Split::kRounded, kGradientSplit = Tf32Split::kRounded;
  static constexpr int kBSlices = 1;
  __device__ static void a_fragment(const float* tile, int stride, int g, int t, float (&a)[4]) {
    a_from_rows(tile, stride, g, t, a);
  }
  __device__ static void b_fragments(const float* tile, int stride, int g, int t, float (&b)[kBSlices][2]) {
    b_from_rows(tile, stride, g, t, b[0]);
  }
};

// S^T = K Q^T and dP^T = V dO^T for a warp's 16 keys (`k` and `v` at their first row) against 8 kSlices
// queries (`q` and `dout` at their first row), the operands read and split as Operands says.
template <int D, class Operands, int kSlices>
__device__ void scores_and_dp(const float* k, const float* v, const float* q, const float* dout, int g,
                              int lane_t, float (&s)[kSlices][4], float (&dp)[kSlices][4]) {
  using APart = SplitFragment<4, Operands::kScoresSplit>;
  using BPart = SplitFragment<2, Operands::kScoresSplit>;
  constexpr int kLoad = Operands::kBSlices;
#pragma unroll
  for (int x = 0; x < D; x += 8) {
    float a[4];
    Operands::a_fragment(k + x, kStride<D>, g, lane_t, a);
    const APart k_part(a);
    Operands::a_fragment(v + x, kStride<D>, g, lane_t, a);
    const APart v_part(a);
#pragma unroll
    for (int j = 0; j < kSlices; j += kLoad) {
      float b[kLoad][2];  // b[u]: B's column n is query 8 (j + u) + n
      Operands::b_fragments(q + 8 * j * kStride<D> + x, kStride<D>, g, lane_t, b);
#pragma unroll
      for (int u = 0; u < kLoad; ++u) mma_3xtf32(s[j + u], k_part, BPart(b[u]));
      Operands::b_fragments(dout + 8 * j * kStride<D> + x, kStride<D>, g, lane_t, b);
#pragma unroll
      for (int u = 0; u < kLoad; ++u) mma_3xtf32(dp[j + u], v_part, BPart(b[u]));
    }
  }
}

// S^T becomes P^T and dP^T becomes scale * dS^T, element by element: key key0 + g + 8 (i / 2) and query
// query0 + 8j + 2t + i % 2, whose lse and D are lse[8j + 2t + i % 2] and delta[...]. lse times lse_factor is
// in base 2: 1 where the tile holds it so already (version 4 multiplies as it loads), log2(e) where it holds
// lse as the forward pass wrote it (version 5 copies it unchanged). A masked element (past n_q or n_k, or a
// key after the query under the causal mask) has P = 0.
template <int kSlices>
__device__ void probabilities(const BackwardArgs& args, const float* lse, float lse_factor,
                              const float* delta, int query0, int key0, int g, int lane_t,
                              float (&s)[kSlices][4], float (&dp)[kSlices][4]) {
  const float score_factor = args.scale * kLog2e;  // exp(x) as exp2(x log2(e)): one instruction
#pragma unroll
  for (int j = 0; j < kSlices; ++j)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int r = 8 * j + 2 * lane_t + i % 2, query = query0 + r, key = key0 + g + 8 * (i / 2);
      const float p = args.sees(query, key) ? exp2f(fmaf(s[j][i], score_factor, -lse[r] * lse_factor)) : 0.0f;
      s[j][i] = p;
      dp[j][i] = args.scale * p * (dp[j][i] - delta[r]);
    }
}

// A warp's scale * dS^T (16 keys x 8 kSlices queries, as accumulator fragments) into the shared dS^T tile
// at its first key and query.
template <int kSlices>
__device__ void store_ds_t(float* ds_t, int g, int lane_t, const float (&ds)[kSlices][4]) {
#pragma unroll
  for (int j = 0; j < kSlices; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h)
      *reinterpret_cast<float2*>(ds_t + (g + 8 * h) * kDsStride + 8 * j + 2 * lane_t) =
          make_float2(ds[j][2 * h], ds[j][2 * h + 1]);
}

// dq += scale dS K for the tile's queries warp_query .. warp_query + 15 and kDims dims from dim0, over the
// 64 keys, the operands split as kSplit says.
template <int D, int kDims, Tf32Split kSplit>
__device__ void add_dq(const float (&ds_t)[kKeys][kDsStride], const float (&k)[kKeys][kStride<D>],
                       const BackwardArgs& args, float* dq_head, int q0, int warp_query, int dim0, int g,
                       int lane_t) {
  float acc[kDims / 8][4] = {};
#pragma unroll
  for (int j = 0; j < kKeys / 8; ++j) {
    float a[4];
    a_from_columns(&ds_t[8 * j][warp_query], kDsStride, g, lane_t, a);
    const SplitFragment<4, kSplit> ds_part(a);
#pragma unroll
    for (int n = 0; n < kDims / 8; ++n) {
      float b[2];
      b_from_columns(&k[8 * j][dim0 + 8 * n], kStride<D>, g, lane_t, b);
      mma_3xtf32(acc[n], ds_part, SplitFragment<2, kSplit>(b));
    }
  }
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int query = q0 + warp_query + g + 8 * h;
    if (query >= args.n_q) continue;
#pragma unroll
    for (int n = 0; n < kDims / 8; ++n) {
      float* to = dq_head + static_cast<size_t>(query) * D + dim0 + 8 * n + 2 * lane_t;
      atomicAdd(to, acc[n][2 * h]);
      atomicAdd(to + 1, acc[n][2 * h + 1]);
    }
  }
}

// A warp's accumulator fragments (16 rows x D columns) into rows `stride` floats apart from `dst`, rows
// `rows` and later left out (keys past n_k): dK and dV at the end of a block.
template <int D>
__device__ void store_fragments(float* dst, int stride, int rows, int g, int lane_t,
                                const float (&acc)[D / 8][4]) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    if (g + 8 * h >= rows) continue;
#pragma unroll
    for (int n = 0; n < D / 8; ++n)
      *reinterpret_cast<float2*>(dst + static_cast<size_t>(g + 8 * h) * stride + 8 * n + 2 * lane_t) =
          make_float2(acc[n][2 * h], acc[n][2 * h + 1]);
  }
}

// Version 4's kernel: a block of 4 warps, each 16 keys against the whole tile of 64 queries.
constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kSlices = kQueries / 8;  // 8-query slices of S^T and dP^T per warp

template <int D>
struct Tiles {
  float k[kKeys][kStride<D>];
  float v[kKeys][kStride<D>];
  float q[kQueries][kStride<D>];
  float dout[kQueries][kStride<D>];
  float ds_t[kKeys][kDsStride];  // scale * dS^T of the tile
  float lse[kQueries];           // in base 2: lse * log2(e)
  float delta[kQueries];
};

template <int D, class Operands>
__global__ void __launch_bounds__(kThreads, D <= 64 ? 2 : 1) flash_bwd_kernel(BackwardArgs args) {
  extern __shared__ float4 shared_memory[];
  Tiles<D>& t = *reinterpret_cast<Tiles<D>*>(shared_memory);
  const int head = blockIdx.y, k0 = blockIdx.x * kKeys;
  const size_t q_head = static_cast<size_t>(head) * args.n_q, k_head = static_cast<size_t>(head) * args.n_k;
  const int warp_row = threadIdx.x / 32 * 16, g = threadIdx.x % 32 / 4, lane_t = threadIdx.x % 4;

  copy_rows_async<D, kKeys, kThreads>(&t.k[0][0], kStride<D>, args.k + k_head * D, k0, args.n_k);
  copy_rows_async<D, kKeys, kThreads>(&t.v[0][0], kStride<D>, args.v + k_head * D, k0, args.n_k);
  __pipeline_commit();
  float dk[D / 8][4] = {}, dv[D / 8][4] = {};

  for (int q0 = first_query_tile(args, k0) * kQueries; q0 < args.n_q; q0 += kQueries) {
    __syncthreads();  // every warp is done with the last tile's Q, dO, dS^T, lse and D
    copy_rows_async<D, kQueries, kThreads>(&t.q[0][0], kStride<D>, args.q + q_head * D, q0, args.n_q);
    copy_rows_async<D, kQueries, kThreads>(&t.dout[0][0], kStride<D>, args.dout + q_head * D, q0, args.n_q);
    __pipeline_commit();
    for (int r = threadIdx.x; r < kQueries; r += kThreads) {
      const bool inside = q0 + r < args.n_q;
      t.lse[r] = inside ? args.lse[q_head + q0 + r] * kLog2e : 0.0f;
      t.delta[r] = inside ? args.delta[q_head + q0 + r] : 0.0f;
    }
    __pipeline_wait_prior(0);  // this thread's copies have landed (K's and V's too, on the first tile)
    __syncthreads();           // and every thread's

    float s[kSlices][4] = {}, dp[kSlices][4] = {};
    scores_and_dp<D, Operands>(&t.k[warp_row][0], &t.v[warp_row][0], &t.q[0][0], &t.dout[0][0], g, lane_t, s,
                               dp);
    probabilities(args, t.lse, 1.0f, t.delta, q0, k0 + warp_row, g, lane_t, s, dp);
    store_ds_t(&t.ds_t[warp_row][0], g, lane_t, dp);
    constexpr Tf32Split kSplit = Operands::kGradientSplit;
    add_product_from_accumulators<kSplit>(s, &t.dout[0][0], kStride<D>, g, lane_t, dv);  // dV += P^T dO
    add_product_from_accumulators<kSplit>(dp, &t.q[0][0], kStride<D>, g, lane_t, dk);    // dK += dS^T Q
    __syncthreads();  // every warp's dS^T is stored
    add_dq<D, D, kSplit>(t.ds_t, t.k, args, args.dq + q_head * D, q0, warp_row, 0, g, lane_t);
  }
  __pipeline_wait_prior(0);  // a block whose keys no query sees copied K and V all the same
  const size_t first = (k_head + k0 + warp_row) * D;  // the warp's first key
  store_fragments<D>(args.dk + first, D, args.n_k - (k0 + warp_row), g, lane_t, dk);
  store_fragments<D>(args.dv + first, D, args.n_k - (k0 + warp_row), g, lane_t, dv);
}

// Version 4's kernel at d = 16, 32 or 64, its operands read and split as Operands says.
template <class Operands = ScalarLoadsRoundedSplit>
void launch_up_to_64(const BackwardArgs& args, int bh, int d) {
  switch (d) {
    case 16:
      return launch_main<Tiles<16>, kThreads>(flash_bwd_kernel<16, Operands>, args, bh);
    case 32:
      return launch_main<Tiles<32>, kThreads>(flash_bwd_kernel<32, Operands>, args, bh);
    case 64:
      return launch_main<Tiles<64>, kThreads>(flash_bwd_kernel<64, Operands>, args, bh);
  }
}

}  // namespace tensor_cores
