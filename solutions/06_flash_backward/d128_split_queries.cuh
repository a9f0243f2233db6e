// Puzzle 6's kernel at d = 128 from version 5 on: 8 warps a block, two per 16 keys, each a half of every
// tile of queries (5_d128_split_queries.cu says why), its operands read and split as Operands says
// (tensor_cores_3xtf32.cuh: version 5's; truncated_split_ldmatrix.cuh: version 6's). The steps are
// tensor_cores_3xtf32.cuh's; the walk-through is the puzzle's docs page.
#pragma once
#include "tensor_cores_3xtf32.cuh"

namespace split_queries {

using namespace tensor_cores;

constexpr int D = 128;
constexpr int kWarps = 8;  // warp w: keys 16 (w % 4) .. + 15, queries of its half w / 4 of each tile
constexpr int kThreads = 32 * kWarps;
constexpr int kHalf = kQueries / 2;  // a warp's queries of a tile
constexpr int kSlices = kHalf / 8;   // 8-query slices of S^T and dP^T per warp

struct Tiles {  // 216 KB
  float k[kKeys][kStride<D>];
  float v[kKeys][kStride<D>];
  // Two buffers: the next tile of queries lands in one while the warps read the other.
  float q[2][kQueries][kStride<D>];
  float dout[2][kQueries][kStride<D>];
  float lse[2][kQueries];
  float delta[2][kQueries];
  float ds_t[kKeys][kDsStride];  // scale * dS^T of the tile
};

// Starts copying the Q, dO, lse and D of the queries q0 .. q0 + 63 into buffer b, as one batch.
__device__ void copy_query_tile(Tiles& t, const BackwardArgs& args, size_t q_head, int q0, int b) {
  copy_rows_async<D, kQueries, kThreads>(&t.q[b][0][0], kStride<D>, args.q + q_head * D, q0, args.n_q);
  copy_rows_async<D, kQueries, kThreads>(&t.dout[b][0][0], kStride<D>, args.dout + q_head * D, q0, args.n_q);
  for (int r = threadIdx.x; r < kQueries; r += kThreads) {
    if (q0 + r < args.n_q) {
      __pipeline_memcpy_async(&t.lse[b][r], args.lse + q_head + q0 + r, sizeof(float));
      __pipeline_memcpy_async(&t.delta[b][r], args.delta + q_head + q0 + r, sizeof(float));
    } else {
      t.lse[b][r] = t.delta[b][r] = 0.0f;
    }
  }
  __pipeline_commit();
}

// Adds a warp's accumulator fragments of 16 keys x 128 dims from a shared tile (D + 4 floats a row).
__device__ void add_fragments(const float* tile, int g, int lane_t, float (&acc)[D / 8][4]) {
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int n = 0; n < D / 8; ++n) {
      const float2 other =
          *reinterpret_cast<const float2*>(tile + (g + 8 * h) * kStride<D> + 8 * n + 2 * lane_t);
      acc[n][2 * h] += other.x;
      acc[n][2 * h + 1] += other.y;
    }
}

template <class Operands>
__global__ void __launch_bounds__(kThreads, 1) flash_bwd_kernel(BackwardArgs args) {
  extern __shared__ float4 shared_memory[];
  Tiles& t = *reinterpret_cast<Tiles*>(shared_memory);
  const int head = blockIdx.y, k0 = blockIdx.x * kKeys;
  const size_t q_head = static_cast<size_t>(head) * args.n_q, k_head = static_cast<size_t>(head) * args.n_k;
  const int warp = threadIdx.x / 32, g = threadIdx.x % 32 / 4, lane_t = threadIdx.x % 4;
  const int warp_key = warp % 4 * 16;  // its 16 keys; in the dq product, its 16 queries
  const int half = warp / 4;           // its half of the queries; in the dq product, of the dims
  const int warp_query = half * kHalf;

  copy_rows_async<D, kKeys, kThreads>(&t.k[0][0], kStride<D>, args.k + k_head * D, k0, args.n_k);
  copy_rows_async<D, kKeys, kThreads>(&t.v[0][0], kStride<D>, args.v + k_head * D, k0, args.n_k);
  __pipeline_commit();
  int q0 = first_query_tile(args, k0) * kQueries;
  if (q0 < args.n_q) copy_query_tile(t, args, q_head, q0, 0);
  float dk[D / 8][4] = {}, dv[D / 8][4] = {};  // over this warp's half of the queries

  for (int b = 0; q0 < args.n_q; q0 += kQueries, b ^= 1) {
    __pipeline_wait_prior(0);  // this thread's copies of this tile have landed (K's and V's too, at first)
    __syncthreads();           // and every thread's; every warp is done with the last tile and its buffer
    if (q0 + kQueries < args.n_q) copy_query_tile(t, args, q_head, q0 + kQueries, b ^ 1);

    float s[kSlices][4] = {}, dp[kSlices][4] = {};
    scores_and_dp<D, Operands>(&t.k[warp_key][0], &t.v[warp_key][0], &t.q[b][warp_query][0],
                               &t.dout[b][warp_query][0], g, lane_t, s, dp);
    probabilities(args, &t.lse[b][warp_query], kLog2e, &t.delta[b][warp_query], q0 + warp_query,
                  k0 + warp_key, g, lane_t, s, dp);
    store_ds_t(&t.ds_t[warp_key][warp_query], g, lane_t, dp);
    constexpr Tf32Split kSplit = Operands::kGradientSplit;
    // dV += P^T dO and dK += scale dS^T Q
    add_product_from_accumulators<kSplit>(s, &t.dout[b][warp_query][0], kStride<D>, g, lane_t, dv);
    add_product_from_accumulators<kSplit>(dp, &t.q[b][warp_query][0], kStride<D>, g, lane_t, dk);
    __syncthreads();  // every warp's dS^T is stored
    add_dq<D, D / 2, kSplit>(t.ds_t, t.k, args, args.dq + q_head * D, q0, warp_key, half * D / 2, g, lane_t);
  }
  __pipeline_wait_prior(0);  // a block whose keys no query sees copied K and V all the same

  // The second half's partial dK and dV into the first buffer of Q and dO (last read before the loop's last
  // barrier), added into the first half's, which stores them.
  if (half == 1) {
    store_fragments<D>(&t.q[0][warp_key][0], kStride<D>, 16, g, lane_t, dk);
    store_fragments<D>(&t.dout[0][warp_key][0], kStride<D>, 16, g, lane_t, dv);
  }
  __syncthreads();
  if (half == 0) {
    add_fragments(&t.q[0][warp_key][0], g, lane_t, dk);
    add_fragments(&t.dout[0][warp_key][0], g, lane_t, dv);
    const size_t first = (k_head + k0 + warp_key) * D;  // the warp's first key
    store_fragments<D>(args.dk + first, D, args.n_k - (k0 + warp_key), g, lane_t, dk);
    store_fragments<D>(args.dv + first, D, args.n_k - (k0 + warp_key), g, lane_t, dv);
  }
}

// The whole backward pass (flash_bwd's arguments): this kernel at d = 128, version 4's at d = 16, 32 and 64,
// both reading and splitting their operands as Operands says.
template <class Operands>
void flash_bwd_with(const float* q, const float* k, const float* v, const float* o, const float* lse,
                    const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
                    float scale, bool causal) {
  flash_bwd_steps(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal,
                  [&](const BackwardArgs& args) {
                    if (d == 128) {
                      launch_main<Tiles, kThreads>(flash_bwd_kernel<Operands>, args, bh);
                    } else {
                      tensor_cores::launch_up_to_64<Operands>(args, bh, d);
                    }
                  });
}

}  // namespace split_queries
