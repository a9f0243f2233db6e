// Puzzle 6 · Flash-attention backward — version 4: tensor cores at fp32 accuracy (3xTF32).
// Over 3_d128_tiles.cu: up to d = 64, the five products run on the tensor cores with mma.sync m16n8k8 in
// tf32, each operand split in two tf32 values and each product summed from three mma, for fp32's accuracy
// (puzzle 5's three_tf32.cuh says how; torch's fp32 SDPA backward does the same). Steps 1 and 2 (dq = 0,
// D) are register_tiles.cuh's; d = 128 keeps version 3's kernel (below).
// The spec is in the stub, 06_flash_backward.cu; the walk-through is the puzzle's docs page.
//
// A block of 4 warps owns 64 keys of a head, a warp 16 of them: the rows of one m16n8k8 A fragment, so
// that the products are taken transposed, keys first. Lane (g, t) = (lane / 4, lane % 4) holds keys g
// and g + 8 of its warp. Per tile of 64 queries:
//   1. copy the Q and dO tiles (cp.async), lse and D;
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
// to hide the mma's latency; it ran at 57-59% of version 3's kernel's speed, so d = 128 runs that one.
#include "../common/async_rows.cuh"
#include "../common/three_tf32.cuh"
#include "d128_tiles.cuh"

namespace tensor_cores {

constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kKeys = kTileKeys;        // a block's keys, 16 per warp (launch_main's grid counts in these)
constexpr int kQueries = kTileQueries;  // queries per step of the walk (first_query_tile() counts in these)
constexpr int kSlices = kQueries / 8;   // 8-query slices of S^T and dP^T per warp
constexpr float kLog2e = 1.4426950408889634f;

template <int D>
struct Tiles {
  static constexpr int kStride = D + 4;
  static constexpr int kDsStride = kQueries + 4;
  float k[kKeys][kStride];
  float v[kKeys][kStride];
  float q[kQueries][kStride];
  float dout[kQueries][kStride];
  float ds_t[kKeys][kDsStride];  // scale * dS^T of the tile
  float lse[kQueries];           // in base 2: lse * log2(e)
  float delta[kQueries];
};

// S^T = K Q^T and dP^T = V dO^T for the warp's keys (rows `warp_key` on) against the tile's queries.
template <int D>
__device__ void scores_and_dp(const Tiles<D>& t, int warp_key, int g, int lane_t, float (&s)[kSlices][4],
                              float (&dp)[kSlices][4]) {
  constexpr int kStride = Tiles<D>::kStride;
#pragma unroll
  for (int x = 0; x < D; x += 8) {
    float a[4];
    a_from_rows(&t.k[warp_key][x], kStride, g, lane_t, a);
    const SplitFragment<4> k_part(a);
    a_from_rows(&t.v[warp_key][x], kStride, g, lane_t, a);
    const SplitFragment<4> v_part(a);
#pragma unroll
    for (int j = 0; j < kSlices; ++j) {
      float b[2];  // B's column n is query 8j + n
      b_from_rows(&t.q[8 * j][x], kStride, g, lane_t, b);
      mma_3xtf32(s[j], k_part, SplitFragment<2>(b));
      b_from_rows(&t.dout[8 * j][x], kStride, g, lane_t, b);
      mma_3xtf32(dp[j], v_part, SplitFragment<2>(b));
    }
  }
}

// S^T becomes P^T and dP^T becomes scale * dS^T, element by element: key warp_key + g + 8 (i / 2) and
// query 8j + 2t + i % 2 of the tile. A masked element (past n_q or n_k, or a key after the query under the
// causal mask) has P = 0.
template <int D>
__device__ void probabilities(const Tiles<D>& t, const BackwardArgs& args, int q0, int key0, int g,
                              int lane_t, float (&s)[kSlices][4], float (&dp)[kSlices][4]) {
  const float score_factor = args.scale * kLog2e;
#pragma unroll
  for (int j = 0; j < kSlices; ++j)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int r = 8 * j + 2 * lane_t + i % 2, query = q0 + r, key = key0 + g + 8 * (i / 2);
      const float p = args.sees(query, key) ? exp2f(fmaf(s[j][i], score_factor, -t.lse[r])) : 0.0f;
      s[j][i] = p;
      dp[j][i] = args.scale * p * (dp[j][i] - t.delta[r]);
    }
}

// dq += scale dS K for the tile's queries warp_query .. warp_query + 15 and every dim, over the 64 keys.
template <int D>
__device__ void add_dq(const Tiles<D>& t, const BackwardArgs& args, float* dq_head, int q0, int warp_query,
                       int g, int lane_t) {
  float acc[D / 8][4] = {};
#pragma unroll
  for (int j = 0; j < kKeys / 8; ++j) {
    float a[4];
    a_from_columns(&t.ds_t[8 * j][warp_query], Tiles<D>::kDsStride, g, lane_t, a);
    const SplitFragment<4> ds_part(a);
#pragma unroll
    for (int n = 0; n < D / 8; ++n) {
      float b[2];
      b_from_columns(&t.k[8 * j][8 * n], Tiles<D>::kStride, g, lane_t, b);
      mma_3xtf32(acc[n], ds_part, SplitFragment<2>(b));
    }
  }
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int query = q0 + warp_query + g + 8 * h;
    if (query >= args.n_q) continue;
#pragma unroll
    for (int n = 0; n < D / 8; ++n) {
      float* to = dq_head + static_cast<size_t>(query) * D + 8 * n + 2 * lane_t;
      atomicAdd(to, acc[n][2 * h]);
      atomicAdd(to + 1, acc[n][2 * h + 1]);
    }
  }
}

// The warp's 16 keys of dK or dV, from accumulator fragments.
template <int D>
__device__ void store_keys(float* dst_head, int key0, int n_k, int g, int lane_t,
                           const float (&acc)[D / 8][4]) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int key = key0 + g + 8 * h;
    if (key >= n_k) continue;
#pragma unroll
    for (int n = 0; n < D / 8; ++n)
      *reinterpret_cast<float2*>(dst_head + static_cast<size_t>(key) * D + 8 * n + 2 * lane_t) =
          make_float2(acc[n][2 * h], acc[n][2 * h + 1]);
  }
}

template <int D>
__global__ void __launch_bounds__(kThreads, D <= 64 ? 2 : 1) flash_bwd_kernel(BackwardArgs args) {
  extern __shared__ float4 shared_memory[];
  Tiles<D>& t = *reinterpret_cast<Tiles<D>*>(shared_memory);
  const int head = blockIdx.y, k0 = blockIdx.x * kKeys;
  const size_t q_head = static_cast<size_t>(head) * args.n_q, k_head = static_cast<size_t>(head) * args.n_k;
  const int warp_row = threadIdx.x / 32 * 16, g = threadIdx.x % 32 / 4, lane_t = threadIdx.x % 4;

  copy_rows_async<D, kKeys, kThreads>(&t.k[0][0], Tiles<D>::kStride, args.k + k_head * D, k0, args.n_k);
  copy_rows_async<D, kKeys, kThreads>(&t.v[0][0], Tiles<D>::kStride, args.v + k_head * D, k0, args.n_k);
  __pipeline_commit();
  float dk[D / 8][4] = {}, dv[D / 8][4] = {};

  for (int q0 = first_query_tile(args, k0) * kQueries; q0 < args.n_q; q0 += kQueries) {
    __syncthreads();  // every warp is done with the last tile's Q, dO, dS^T, lse and D
    copy_rows_async<D, kQueries, kThreads>(&t.q[0][0], Tiles<D>::kStride, args.q + q_head * D, q0, args.n_q);
    copy_rows_async<D, kQueries, kThreads>(&t.dout[0][0], Tiles<D>::kStride, args.dout + q_head * D, q0,
                                           args.n_q);
    __pipeline_commit();
    for (int r = threadIdx.x; r < kQueries; r += kThreads) {
      const bool inside = q0 + r < args.n_q;
      t.lse[r] = inside ? args.lse[q_head + q0 + r] * kLog2e : 0.0f;
      t.delta[r] = inside ? args.delta[q_head + q0 + r] : 0.0f;
    }
    __pipeline_wait_prior(0);  // this thread's copies have landed (K's and V's too, on the first tile)
    __syncthreads();           // and every thread's

    float s[kSlices][4] = {}, dp[kSlices][4] = {};
    scores_and_dp(t, warp_row, g, lane_t, s, dp);
    probabilities(t, args, q0, k0 + warp_row, g, lane_t, s, dp);
#pragma unroll
    for (int j = 0; j < kSlices; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        *reinterpret_cast<float2*>(&t.ds_t[warp_row + g + 8 * h][8 * j + 2 * lane_t]) =
            make_float2(dp[j][2 * h], dp[j][2 * h + 1]);
    add_product_from_accumulators(s, &t.dout[0][0], Tiles<D>::kStride, g, lane_t, dv);  // dV += P^T dO
    add_product_from_accumulators(dp, &t.q[0][0], Tiles<D>::kStride, g, lane_t, dk);    // dK += dS^T Q
    __syncthreads();  // every warp's dS^T is stored
    add_dq(t, args, args.dq + q_head * D, q0, warp_row, g, lane_t);
  }
  __pipeline_wait_prior(0);  // a block whose keys no query sees copied K and V all the same
  store_keys<D>(args.dk + k_head * D, k0 + warp_row, args.n_k, g, lane_t, dk);
  store_keys<D>(args.dv + k_head * D, k0 + warp_row, args.n_k, g, lane_t, dv);
}

template <int D>
void launch(const BackwardArgs& args, int bh) {
  launch_main<Tiles<D>, kThreads>(flash_bwd_kernel<D>, args, bh);
}

}  // namespace tensor_cores

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  flash_bwd_steps(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal,
                  [&](const BackwardArgs& args) {
                    switch (d) {
                      case 16:
                        return tensor_cores::launch<16>(args, bh);
                      case 32:
                        return tensor_cores::launch<32>(args, bh);
                      case 64:
                        return tensor_cores::launch<64>(args, bh);
                      case 128:  // version 3's kernel: this one, 1 block of 4 warps an SM there, is slower
                        return launch_main<d128::Tiles>(d128::flash_bwd_kernel, args, bh);
                    }
                  });
}
