// Puzzle 6 · Flash-attention backward — version 5: the tensor cores at d = 128 too, two warps per 16 keys.
// Over 4_tensor_cores_3xtf32.cu: at d = 128 a block of 8 warps instead of 4. Version 4's layout there (a
// warp per 16 keys against all 64 queries of a tile) needs 255 registers a thread, 128 of them for its
// keys' dK and dV, so only 4 warps fit an SM: one a scheduler, idle while its mma chain runs. Here two warps
// share each 16 keys, a half of the tile's queries each (16 keys x 32 queries of S^T and dP^T, half the
// registers), and each sums its own partial dK and dV over its half; the two partials are added once, at
// the end, through shared memory. dq's product is split the same way: a warp per 16 queries and 64 dims.
// With a single block an SM nothing else runs while its Q and dO tiles come in, so they come in during the
// tile before (two buffers, 216 KB of shared memory). The steps are tensor_cores_3xtf32.cuh's; d = 16, 32
// and 64 keep version 4's kernel. On an H200 it runs the d = 128 bench shapes at 43.7-47.5 TFLOP/s without a
// mask and 36.6-48.5 with one, where version 3's kernel ran at 35-39 and 30-40.
// The spec is in the stub, 06_flash_backward.cu; the walk-through is the puzzle's docs page.
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
    scores_and_dp<D>(&t.k[warp_key][0], &t.v[warp_key][0], &t.q[b][warp_query][0], &t.dout[b][warp_query][0],
                     g, lane_t, s, dp);
    probabilities(args, &t.lse[b][warp_query], kLog2e, &t.delta[b][warp_query], q0 + warp_query,
                  k0 + warp_key, g, lane_t, s, dp);
    store_ds_t(&t.ds_t[warp_key][warp_query], g, lane_t, dp);
    add_product_from_accumulators(s, &t.dout[b][warp_query][0], kStride<D>, g, lane_t, dv);  // dV += P^T dO
    add_product_from_accumulators(dp, &t.q[b][warp_query][0], kStride<D>, g, lane_t, dk);    // dK += dS^T Q
    __syncthreads();  // every warp's dS^T is stored
    add_dq<D, D / 2>(t.ds_t, t.k, args, args.dq + q_head * D, q0, warp_key, half * D / 2, g, lane_t);
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

}  // namespace split_queries

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  flash_bwd_steps(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal,
                  [&](const BackwardArgs& args) {
                    if (d == 128) {
                      launch_main<split_queries::Tiles, split_queries::kThreads>(
                          split_queries::flash_bwd_kernel, args, bh);
                    } else {
                      tensor_cores::launch_up_to_64(args, bh, d);
                    }
                  });
}
