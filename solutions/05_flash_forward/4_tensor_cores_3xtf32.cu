// Puzzle 5 · Flash attention forward — version 4: tensor cores at fp32 accuracy (3xTF32).
// Over 3_eight_rows_per_thread.cu: both products, S = Q K^T and O += P V, run on the tensor cores with
// mma.sync m16n8k8 in tf32, each operand split in two tf32 values and each product summed from three
// mma, for fp32's accuracy (three_tf32.cuh says how; torch's fp32 SDPA does the same).
// The spec is in the stub, 05_flash_forward.cu; the walk-through is the puzzle's docs page; the causal
// bounds, the masks, the Q load and the launch come from forward_tiles.cuh.
//
// A block of 4 warps owns 64 query rows, a warp 16 of them: the rows of one m16n8k8 A fragment. Lane
// (g, t) = (lane / 4, lane % 4) holds rows g and g + 8 of its warp. Per tile of 64 keys:
//   1. wait for K's copy (cp.async, issued a step ahead);
//   2. S = Q K^T: 8 mma tiles of 8 keys, d / 8 steps of k = 8, each 3 mma;
//   3. every warp done with K: start copying the next tile's K; the online step on S's fragments (a row's
//      16 scores per lane, 4 lanes a row);
//   4. wait for V's copy, O += P V: P's accumulator fragments are A fragments as they stand, if the keys
//      are renumbered (three_tf32.cuh); d / 8 mma tiles of O, 8 steps of k = 8, each 3 mma;
//   5. every warp done with V: start copying the next tile's V.
// Shared memory: Q, K and V tiles of 64 rows, D + 4 floats apart, so that every fragment read (rows g,
// columns t) hits 32 distinct banks; 101 KB at d = 128, 2 blocks an SM.
#include "../common/async_rows.cuh"
#include "forward_tiles.cuh"
#include "../common/three_tf32.cuh"

namespace {

constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kKeySlices = kKeys / 8;  // the tile's score fragments per warp, 8 keys each

template <int D>
struct Tiles {
  static constexpr int kStride = D + kPad;  // 4 more than a multiple of 32 (D = 16: 20), see above
  static constexpr size_t kBytes = (kRows + 2 * kKeys) * kStride * sizeof(float);
  float* q;  // [kRows][kStride], already multiplied by scale * log2(e)
  float* k;  // [kKeys][kStride]
  float* v;  // [kKeys][kStride]
  __device__ explicit Tiles(float* base) : q(base), k(base + kRows * kStride), v(k + kKeys * kStride) {}
};

// Starts copying key rows first .. first + kKeys - 1 of an [n, D] matrix into a tile, as one commit group.
template <int D>
__device__ void copy_keys_async(float* tile, const float* src, int first, int n) {
  copy_rows_async<D, kKeys, kThreads>(tile, Tiles<D>::kStride, src, first, n);
  __pipeline_commit();
}

// The warp's 16 x 64 scores of the tile, S = Q K^T (base-2 units: Q carries scale * log2(e)).
// s[j] is key slice j (keys 8j .. 8j + 7): the C fragment layout.
template <int D>
__device__ void tile_scores(const Tiles<D>& t, int warp_row, int g, int lane_t, float (&s)[kKeySlices][4]) {
  constexpr int kStride = Tiles<D>::kStride;
#pragma unroll
  for (int j = 0; j < kKeySlices; ++j)
    for (int i = 0; i < 4; ++i) s[j][i] = 0.0f;
#pragma unroll
  for (int x = 0; x < D; x += 8) {
    float a[4];
    a_from_rows(t.q + warp_row * kStride + x, kStride, g, lane_t, a);
    const SplitFragment<4> q_part(a);
#pragma unroll
    for (int j = 0; j < kKeySlices; ++j) {
      float b[2];  // B = K^T: B's column n is key 8j + n
      b_from_rows(t.k + 8 * j * kStride + x, kStride, g, lane_t, b);
      mma_3xtf32(s[j], q_part, SplitFragment<2>(b));
    }
  }
}

// One tile's online step for the lane's two rows (h = 0: row g, h = 1: row g + 8), base 2: each row's
// 16 scores here and 48 on the other 3 lanes of its quad. s becomes P = exp2(s - m).
template <int D>
__device__ void online_step(float (&s)[kKeySlices][4], float (&m)[2], float (&l)[2], float (&o)[D / 8][4]) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float tile_max = -INFINITY;
#pragma unroll
    for (int j = 0; j < kKeySlices; ++j) tile_max = fmaxf(tile_max, fmaxf(s[j][2 * h], s[j][2 * h + 1]));
    tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 1));
    tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 2));
    const float m_new = fmaxf(m[h], tile_max);
    // A row that has seen no key yet keeps m = -inf: subtracting 0 instead gives exp2(-inf) = 0, not NaN.
    const float base = m_new == -INFINITY ? 0.0f : m_new;
    const float rescale = exp2f(m[h] - base);
    m[h] = m_new;
    l[h] *= rescale;
#pragma unroll
    for (int n = 0; n < D / 8; ++n) {
      o[n][2 * h] *= rescale;
      o[n][2 * h + 1] *= rescale;
    }
#pragma unroll
    for (int j = 0; j < kKeySlices; ++j)
#pragma unroll
      for (int i = 2 * h; i < 2 * h + 2; ++i) {
        s[j][i] = exp2f(s[j][i] - base);
        l[h] += s[j][i];
      }
  }
}

template <int D>
__global__ void __launch_bounds__(kThreads, D <= 64 ? 4 : 2)
    flash_fwd_kernel(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                     float* __restrict__ o, float* __restrict__ lse, int n_q, int n_k, float q_factor,
                     bool causal) {
  extern __shared__ float4 shared_memory[];
  const Tiles<D> t(reinterpret_cast<float*>(shared_memory));
  const int first_row = first_row_of_block(causal);
  seek_head<D>(q, k, v, o, lse, n_q, n_k);
  const int key_end = key_end_of(first_row, n_q, n_k, causal);
  const int warp_row = threadIdx.x / 32 * 16, g = threadIdx.x % 32 / 4, lane_t = threadIdx.x % 4;

  if (key_end > 0) {  // the first tile's K and V fly while Q is loaded
    copy_keys_async<D>(t.k, k, 0, n_k);
    copy_keys_async<D>(t.v, v, 0, n_k);
  }
  load_rows<D, kThreads>(t.q, Tiles<D>::kStride, q, first_row, kRows, n_q, q_factor);
  float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f}, acc[D / 8][4] = {};

  for (int first_key = 0; first_key < key_end; first_key += kKeys) {
    const bool more = first_key + kKeys < key_end;
    __pipeline_wait_prior(1);  // this thread's K copies have landed (in flight: V's)
    __syncthreads();           // and every thread's; Q too, on the first tile

    float s[kKeySlices][4];
    tile_scores<D>(t, warp_row, g, lane_t, s);
    __syncthreads();  // every warp is done with K: the next tile's may land there
    if (more)
      copy_keys_async<D>(t.k, k, first_key + kKeys, n_k);
    else
      __pipeline_commit();  // an empty group keeps the count

    if (straddles(first_key, first_row, n_q, n_k, causal)) {
#pragma unroll
      for (int j = 0; j < kKeySlices; ++j)
#pragma unroll
        for (int i = 0; i < 4; ++i)
          if (masked(first_row + warp_row + g + 8 * (i / 2), first_key + 8 * j + 2 * lane_t + i % 2, n_q, n_k,
                     causal))
            s[j][i] = -INFINITY;
    }
    online_step<D>(s, m, l, acc);

    __pipeline_wait_prior(1);  // this thread's V copies have landed (in flight: the next K's)
    __syncthreads();
    add_product_from_accumulators(s, t.v, Tiles<D>::kStride, g, lane_t, acc);  // O += P V
    __syncthreads();                                                           // every warp is done with V
    if (more) copy_keys_async<D>(t.v, v, first_key + kKeys, n_k);
  }

  // The end of the lane's rows: a row's l summed over its quad; o = O / l, lse = ln(2) * (m + log2(l)).
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float row_l = l[h];
    row_l += __shfl_xor_sync(0xffffffffu, row_l, 1);
    row_l += __shfl_xor_sync(0xffffffffu, row_l, 2);
    const int row = first_row + warp_row + g + 8 * h;
    if (row >= n_q) continue;
    const float inv_l = row_l > 0.0f ? 1.0f / row_l : 0.0f;
#pragma unroll
    for (int n = 0; n < D / 8; ++n)
      *reinterpret_cast<float2*>(o + static_cast<size_t>(row) * D + 8 * n + 2 * lane_t) =
          make_float2(acc[n][2 * h] * inv_l, acc[n][2 * h + 1] * inv_l);
    if (lane_t == 0) lse[row] = row_l > 0.0f ? kLn2 * (m[h] + log2f(row_l)) : -INFINITY;
  }
}

}  // namespace

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  dispatch_d(d, [&](auto d_value) {
    constexpr int D = decltype(d_value)::value;
    launch_blocks(flash_fwd_kernel<D>, Tiles<D>::kBytes, kThreads, q, k, v, o, lse, bh, n_q, n_k, scale,
                  causal);
  });
}
