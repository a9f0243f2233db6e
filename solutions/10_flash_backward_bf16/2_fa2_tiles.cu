// Puzzle 10 · Flash attention backward in bf16 — version 2: fast.
// Over 1_clear.cu:
//   - blocks of 128 keys and 8 warps (1_clear.cu: 64 keys, 4 warps): Q, dO, lse and D are read once per
//     128 keys, not 64, and dq_accum gets half as many atomic adds;
//   - FlashAttention-2's tiles and warp layouts (its Flash_bwd_kernel_traits<d, queries per tile, keys per
//     block, warps, S/dP, dK/dV, dQ layouts> where shared memory allows 144 KiB: <64, 128, 128, 8, 4, 4, 4>
//     and <128, 64, 128, 8, 2, 4, 2>). Each of the five products is a warp_gemm with its own warp layout,
//     A and B both from shared memory:
//       S = Q K^T and dP = dO V^T: warps 2 (queries) x 4 (keys) at d 128, 32 x 32 per warp; 4 x 2 at d 64,
//         32 x 64 per warp (queries 128 per tile there);
//       dV += P^T dO and dK += dS^T Q: warps 4 (keys) x 2 (d), 32 keys x d/2 per warp, in registers;
//       dQ = dS K: warps 2 x 4 at d 128, 4 x 2 at d 64: 32 queries x 32 columns per warp.
//     P and dS go through shared memory (as FlashAttention-2 does), since a warp's S tile is not the
//     rows of its dV tile. A warp tile of two m16 tiles by two or more n16 tiles reuses each ldmatrix for
//     several mma: 1152 ldmatrix.x4 per 2560 mma per tile (1_clear.cu: 180 per 320, 1.25x the
//     shared-memory reads per mma);
//   - rows = queries in S and dP (1_clear.cu computes S^T): the lane's 4 rows of lse and D come from
//     global memory into registers at the top of the tile;
//   - Q and dO double-buffered by cp.async: tile i + 1 is on its way while tile i is computed; two
//     __syncthreads per tile (1_clear.cu: three, and it waits for each tile's copy);
//   - a tile that crosses neither the end of the keys nor the causal diagonal skips the mask code;
//   - the preprocessing kernel reads o and dout 16 bytes per lane (8 or 16 lanes per row, shuffled sums)
//     and also writes lse * log2(e) (+inf where lse = -inf: P = 0); dq_kernel converts 8 floats per thread;
//   - the fp32 dQ accumulator, D and lse log2(e) live in a workspace kept from call to call: a cudaMalloc
//     and cudaFree per call cost 0.13-0.30 ms on an H200, and cudaFree waits for the GPU
//     (flash_bwd_rows.cuh).
// Padded rows (d + 8 bf16), the fragment layouts, the masks and the fp32 dQ accumulator are 1_clear.cu's.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "../common/tensor_core_ptx.cuh"
#include "flash_bwd_rows.cuh"

namespace {

constexpr int kWarps = 8, kThreads = 32 * kWarps;
constexpr int kPad = 8;  // bf16 of padding per shared row: conflict-free ldmatrix

// acc (16 MT x 16 NT, acc[mt][n] is columns 8n .. 8n + 7) += A (16 MT x K) B (K x 16 NT), both from shared
// memory, rows of stride sa and sb bf16. kAByRows: A is stored [m][k] (ldmatrix), else [k][m] (.trans);
// kBByRows: B is stored [n][k] (ldmatrix: K's rows in S = Q K^T), else [k][n] (.trans: V's in O = P V).
// a and b point at the warp's first row (m or k) and column.
template <int MT, int NT, int K, bool kAByRows, bool kBByRows>
__device__ __forceinline__ void warp_gemm(float (&acc)[MT][2 * NT][4], const __nv_bfloat16* a, int sa,
                                          const __nv_bfloat16* b, int sb) {
  const int lane = threadIdx.x % 32;
  // The lane's ldmatrix row and column within a 16 x 16 block, without and with .trans (1_clear.cu's).
  const int a_at =
      kAByRows ? (lane % 16) * sa + lane / 16 * 8 : (lane % 8 + lane / 16 * 8) * sa + lane / 8 % 2 * 8;
  const int b_at = kBByRows ? (lane % 8 + lane / 16 * 8) * sb + lane / 8 % 2 * 8
                            : (lane % 8 + lane / 8 % 2 * 8) * sb + lane / 16 * 8;
#pragma unroll
  for (int kk = 0; kk < K / 16; ++kk) {
    uint32_t af[MT][4], bf[NT][4];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
      if constexpr (kAByRows)
        ldmatrix_x4(af[mt], a + a_at + 16 * mt * sa + 16 * kk);
      else
        ldmatrix_x4_trans(af[mt], a + a_at + 16 * kk * sa + 16 * mt);
    }
#pragma unroll
    for (int nt = 0; nt < NT; ++nt) {
      if constexpr (kBByRows)
        ldmatrix_x4(bf[nt], b + b_at + 16 * nt * sb + 16 * kk);
      else
        ldmatrix_x4_trans(bf[nt], b + b_at + 16 * kk * sb + 16 * nt);
    }
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int nt = 0; nt < NT; ++nt) {
        mma_bf16(acc[mt][2 * nt], af[mt], bf[nt][0], bf[nt][1]);
        mma_bf16(acc[mt][2 * nt + 1], af[mt], bf[nt][2], bf[nt][3]);
      }
  }
}

// Copies rows first .. first + kRows - 1 of an [n][D] matrix into a padded tile (zeros past n).
template <int D, int kRows>
__device__ __forceinline__ void load_tile(__nv_bfloat16* tile, const __nv_bfloat16* src, int first, int n) {
#pragma unroll
  for (int i = threadIdx.x; i < kRows * D / 8; i += kThreads) {
    const int row = i / (D / 8), col = i % (D / 8) * 8;
    const bool inside = first + row < n;
    cp_async_16(tile + row * (D + kPad) + col,
                src + (inside ? static_cast<size_t>(first + row) * D + col : 0), inside ? 16 : 0);
  }
}

// kM queries per tile, kN keys per block; the warp layouts of the text above.
template <int D_, int kM_, int kN_, int kSWarpsM_, int kQWarpsM_>
struct Config {
  static constexpr int D = D_, kM = kM_, kN = kN_;
  static constexpr int kStride = D + kPad, kPStride = kN + kPad;  // rows of Q/dO/K/V tiles, of P and dS
  // S and dP: kSWarpsM x (8 / kSWarpsM) warps.
  static constexpr int kSWarpsM = kSWarpsM_, kSWarpsN = kWarps / kSWarpsM;
  static constexpr int kSM = kM / kSWarpsM / 16, kSN = kN / kSWarpsN / 16;  // m16, n16 tiles per warp
  // dK and dV: 4 (keys) x 2 (d) warps.
  static constexpr int kKvM = kN / 4 / 16, kKvN = D / 2 / 16;
  // dQ: kQWarpsM x (8 / kQWarpsM) warps.
  static constexpr int kQWarpsM = kQWarpsM_, kQWarpsN = kWarps / kQWarpsM;
  static constexpr int kQM = kM / kQWarpsM / 16, kQN = D / kQWarpsN / 16;
  // K, V, two stages of Q and dO, P and dS.
  static constexpr int kBytes = (2 * kN * kStride + 4 * kM * kStride + 2 * kM * kPStride) * 2;
};

template <class C>
__global__ void __launch_bounds__(kThreads, 1)
    flash_bwd_bf16_fast(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                        const float* lse_log2, const float* delta, const __nv_bfloat16* dout, float* dq_accum,
                        __nv_bfloat16* dk, __nv_bfloat16* dv, int n_q, int n_k, float scale, bool causal) {
  constexpr int D = C::D, kM = C::kM, kN = C::kN, kStride = C::kStride, kPStride = C::kPStride;
  extern __shared__ __align__(128) __nv_bfloat16 smem[];
  __nv_bfloat16* k_tile = smem;                    // [kN][D]
  __nv_bfloat16* v_tile = k_tile + kN * kStride;   // [kN][D]
  __nv_bfloat16* q_tiles = v_tile + kN * kStride;  // 2 stages of [kM][D]
  __nv_bfloat16* do_tiles = q_tiles + 2 * kM * kStride;
  __nv_bfloat16* p_tile = do_tiles + 2 * kM * kStride;  // P: [kM queries][kN keys]
  __nv_bfloat16* ds_tile = p_tile + kM * kPStride;      // dS: [kM][kN]
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int k0 = blockIdx.x * kN;
  const size_t head = blockIdx.y;
  q += head * n_q * D, dout += head * n_q * D, dq_accum += head * n_q * D;
  lse_log2 += head * n_q, delta += head * n_q;
  k += head * n_k * D, v += head * n_k * D, dk += head * n_k * D, dv += head * n_k * D;
  const int diagonal = n_k - n_q;
  const float scale_log2 = scale * kLog2e;

  // The warp's tiles: S/dP rows s_m0.., keys s_n0..; dK/dV keys kv_m0.., columns kv_n0..; dQ rows, columns.
  const int s_m0 = warp / C::kSWarpsN * (16 * C::kSM), s_n0 = warp % C::kSWarpsN * (16 * C::kSN);
  const int kv_m0 = warp % 4 * (16 * C::kKvM), kv_n0 = warp / 4 * (16 * C::kKvN);
  const int q_m0 = warp / C::kQWarpsN * (16 * C::kQM), q_n0 = warp % C::kQWarpsN * (16 * C::kQN);

  const int first_query = causal ? max(0, k0 - diagonal) : 0;  // < n_q, since k0 < n_k
  int q0 = first_query / kM * kM;
  load_tile<D, kN>(k_tile, k, k0, n_k);
  load_tile<D, kN>(v_tile, v, k0, n_k);
  load_tile<D, kM>(q_tiles, q, q0, n_q);
  load_tile<D, kM>(do_tiles, dout, q0, n_q);
  cp_async_commit();

  float dk_acc[C::kKvM][2 * C::kKvN][4] = {}, dv_acc[C::kKvM][2 * C::kKvN][4] = {};
  for (int stage = 0; q0 < n_q; q0 += kM, stage ^= 1) {
    const __nv_bfloat16* q_tile = q_tiles + stage * kM * kStride;
    const __nv_bfloat16* do_tile = do_tiles + stage * kM * kStride;
    // lse and D of the lane's S rows s_m0 + 16 mt + g + 8 h (a row past n_q: P = 0, dS = 0).
    float row_lse[C::kSM][2], row_delta[C::kSM][2];
#pragma unroll
    for (int mt = 0; mt < C::kSM; ++mt)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = q0 + s_m0 + 16 * mt + g + 8 * h;
        row_lse[mt][h] = row < n_q ? lse_log2[row] : INFINITY;
        row_delta[mt][h] = row < n_q ? delta[row] : 0.0f;
      }
    cp_async_wait<0>();
    __syncthreads();  // tile q0 has landed, and every warp is done with the previous tile (its stage, P, dS)
    if (q0 + kM < n_q) {  // the next tile into the other stage, while this one is computed
      load_tile<D, kM>(q_tiles + (stage ^ 1) * kM * kStride, q, q0 + kM, n_q);
      load_tile<D, kM>(do_tiles + (stage ^ 1) * kM * kStride, dout, q0 + kM, n_q);
    }
    cp_async_commit();

    // S = Q K^T and dP = dO V^T, the warp's kSM m16 x kSN n16 tiles.
    float s[C::kSM][2 * C::kSN][4] = {}, dp[C::kSM][2 * C::kSN][4] = {};
    warp_gemm<C::kSM, C::kSN, D, true, true>(s, q_tile + s_m0 * kStride, kStride, k_tile + s_n0 * kStride,
                                             kStride);
    warp_gemm<C::kSM, C::kSN, D, true, true>(dp, do_tile + s_m0 * kStride, kStride, v_tile + s_n0 * kStride,
                                             kStride);

    // P = exp2(S scale log2(e) - lse log2(e)), dS = P (dP - D); masks only on a tile that needs them.
    const bool needs_mask = k0 + kN > n_k || (causal && k0 + kN - 1 > q0 + diagonal);
#pragma unroll
    for (int mt = 0; mt < C::kSM; ++mt)
#pragma unroll
      for (int n = 0; n < 2 * C::kSN; ++n) {
        float p[4], ds[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int row = s_m0 + 16 * mt + g + 8 * (e / 2), key = k0 + s_n0 + 8 * n + 2 * t + e % 2;
          p[e] = exp2f(s[mt][n][e] * scale_log2 - row_lse[mt][e / 2]);
          if (needs_mask && (key >= n_k || (causal && key > q0 + row + diagonal))) p[e] = 0.0f;
          ds[e] = p[e] * (dp[mt][n][e] - row_delta[mt][e / 2]);
        }
        const int at = (s_m0 + 16 * mt + g) * kPStride + s_n0 + 8 * n + 2 * t;
        *reinterpret_cast<uint32_t*>(p_tile + at) = pack_bf16(p[0], p[1]);
        *reinterpret_cast<uint32_t*>(p_tile + at + 8 * kPStride) = pack_bf16(p[2], p[3]);
        *reinterpret_cast<uint32_t*>(ds_tile + at) = pack_bf16(ds[0], ds[1]);
        *reinterpret_cast<uint32_t*>(ds_tile + at + 8 * kPStride) = pack_bf16(ds[2], ds[3]);
      }
    __syncthreads();  // P and dS of the whole tile are written

    // dV += P^T dO and dK += dS^T Q: A = P^T (dS^T), stored [queries][keys]: .trans; B = dO (Q): .trans.
    warp_gemm<C::kKvM, C::kKvN, kM, false, false>(dv_acc, p_tile + kv_m0, kPStride, do_tile + kv_n0, kStride);
    warp_gemm<C::kKvM, C::kKvN, kM, false, false>(dk_acc, ds_tile + kv_m0, kPStride, q_tile + kv_n0, kStride);

    // dQ += dS K for the warp's rows and columns, added into dq_accum (other blocks add to the same).
    float dq_acc[C::kQM][2 * C::kQN][4] = {};
    warp_gemm<C::kQM, C::kQN, kN, true, false>(dq_acc, ds_tile + q_m0 * kPStride, kPStride, k_tile + q_n0,
                                               kStride);
#pragma unroll
    for (int mt = 0; mt < C::kQM; ++mt)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = q0 + q_m0 + 16 * mt + g + 8 * h;
        if (row >= n_q) continue;
#pragma unroll
        for (int n = 0; n < 2 * C::kQN; ++n) {
          float* out = dq_accum + static_cast<size_t>(row) * D + q_n0 + 8 * n + 2 * t;
          atomicAdd(out, dq_acc[mt][n][2 * h]);
          atomicAdd(out + 1, dq_acc[mt][n][2 * h + 1]);
        }
      }
  }

  // dK (times scale) and dV as bf16 pairs, keys kv_m0 + 16 mt + g + 8 h, columns kv_n0 + 8 n + 2t.
#pragma unroll
  for (int mt = 0; mt < C::kKvM; ++mt)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int key = k0 + kv_m0 + 16 * mt + g + 8 * h;
      if (key >= n_k) continue;
#pragma unroll
      for (int n = 0; n < 2 * C::kKvN; ++n) {
        const size_t at = static_cast<size_t>(key) * D + kv_n0 + 8 * n + 2 * t;
        *reinterpret_cast<uint32_t*>(dk + at) =
            pack_bf16(scale * dk_acc[mt][n][2 * h], scale * dk_acc[mt][n][2 * h + 1]);
        *reinterpret_cast<uint32_t*>(dv + at) = pack_bf16(dv_acc[mt][n][2 * h], dv_acc[mt][n][2 * h + 1]);
      }
    }
}

template <class C>
void launch(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, const __nv_bfloat16* o,
            const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq, __nv_bfloat16* dk,
            __nv_bfloat16* dv, int bh, int n_q, int n_k, float scale, bool causal) {
  cudaFuncSetAttribute(flash_bwd_bf16_fast<C>, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kBytes);
  around_main_kernel<C::D>(o, lse, dout, dq, bh * n_q, scale,
                           [&](float* dq_accum, const float* delta, const float* lse_log2) {
                             const dim3 grid((n_k + C::kN - 1) / C::kN, bh);
                             flash_bwd_bf16_fast<C><<<grid, kThreads, C::kBytes>>>(
                                 q, k, v, lse_log2, delta, dout, dq_accum, dk, dv, n_q, n_k, scale, causal);
                           });
}

}  // namespace

void flash_bwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                    const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                    __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, int d, float scale,
                    bool causal) {
  if (d == 64)
    launch<Config<64, 128, 128, 4, 4>>(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, scale, causal);
  if (d == 128)
    launch<Config<128, 64, 128, 2, 2>>(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, scale, causal);
}
