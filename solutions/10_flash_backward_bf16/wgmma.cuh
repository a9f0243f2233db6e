// Puzzle 10's Hopper kernel (flash attention backward in bf16, versions 3 to 5): one block per 128 keys,
// a producer warp and two consumer warp groups of 64 keys each, the five products as wgmma. 3_wgmma.cu
// says how it works; the versions after it differ in two choices, the entry point's template parameters:
//   - Tiles, the queries per tile at each d: 64 (S^T and dP^T m64n64 per warp group, dQ split by columns),
//     or 128 (m64n128, dQ split by rows: each warp group 64 of the 128 queries, all d columns);
//   - DqAtomics, how dQ is added to dq_accum: one float at a time (here), or two (float2_dq_atomics.cuh).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "../common/hopper_ptx.cuh"
#include "flash_bwd_rows.cuh"

namespace {

// Versions 3 and 4's tiles: 64 queries at both head dims.
struct QueryTiles64 {
  static constexpr int queries(int) { return 64; }
};

// Version 3's dQ: one atomicAdd per float.
struct ScalarDqAtomics {
  static constexpr int kFloats = 1;
  static __device__ void add(float* at, const float* values) { atomicAdd(at, values[0]); }
};

constexpr int kN = 128;        // keys per block
constexpr int kStages = 2;     // Q, dO, lse and D tiles in flight
constexpr int kThreads = 384;  // warp group 0: the producer (one warp works); 1, 2: consumers

template <int D, int kM>
struct Shared {
  // K, V: D / 64 boxes of [kN keys][64 columns]; Q, dO: D / 64 boxes of [kM queries][64 columns], per stage.
  __nv_bfloat16 k[kN * D], v[kN * D], q[kStages][kM * D], dout[kStages][kM * D];
  // dS^T: kM / 64 boxes of [kN keys][64 queries], 128B-swizzled as TMA would land them; two tiles.
  __nv_bfloat16 ds[2][kN * kM];
  float lse[kStages][kM], delta[kStages][kM];
  uint64_t kv_full, full[kStages], empty[kStages], ds_ready[2];
};

template <int D, int kM, class DqAtomics>
__global__ void __launch_bounds__(kThreads, 1)
    flash_bwd_wgmma(const __grid_constant__ CUtensorMap q_map, const __grid_constant__ CUtensorMap k_map,
                    const __grid_constant__ CUtensorMap v_map, const __grid_constant__ CUtensorMap do_map,
                    const float* lse_log2, const float* delta, float* dq_accum, __nv_bfloat16* dk,
                    __nv_bfloat16* dv, int n_q, int n_k, float scale, bool causal) {
  extern __shared__ uint8_t shared_bytes[];
  Shared<D, kM>& s = *reinterpret_cast<Shared<D, kM>*>((reinterpret_cast<uintptr_t>(shared_bytes) + 1023) &
                                                       ~uintptr_t{1023});
  const int k0 = blockIdx.x * kN, head = blockIdx.y, diagonal = n_k - n_q;
  const int first = causal ? max(0, k0 - diagonal) / kM * kM : 0;  // the first tile that sees key k0
  const int tiles = (n_q - first + kM - 1) / kM;
  const int warp_group = threadIdx.x / 128;

  if (threadIdx.x == 0) {
    mbarrier_init(&s.kv_full, 1);
    for (int i = 0; i < kStages; ++i) {
      mbarrier_init(&s.full[i], 32);  // the producer warp's lanes (lse and D), one with the TMA bytes
      mbarrier_init(&s.empty[i], 8);  // one per consumer warp
    }
    for (int i = 0; i < 2; ++i) mbarrier_init(&s.ds_ready[i], 256);  // every consumer thread, after its dS^T
    fence_barrier_init();
  }
  __syncthreads();

  if (warp_group == 0) {  // the producer
    setmaxnreg_dec<40>();
    if (threadIdx.x >= 32) return;
    const int lane = threadIdx.x;
    if (lane == 0) {
      mbarrier_arrive_expect_tx(&s.kv_full, 2 * kN * D * 2);
      for (int c = 0; c < D / 64; ++c) {
        tma_load_3d(s.k + c * kN * 64, &k_map, &s.kv_full, 64 * c, k0, head);
        tma_load_3d(s.v + c * kN * 64, &v_map, &s.kv_full, 64 * c, k0, head);
      }
    }
    lse_log2 += static_cast<size_t>(head) * n_q, delta += static_cast<size_t>(head) * n_q;
    for (int t = 0; t < tiles; ++t) {
      const int stage = t % kStages, q0 = first + t * kM;
      if (t >= kStages) mbarrier_wait(&s.empty[stage], (t / kStages - 1) % 2);  // consumers done with it
      for (int r = lane; r < kM; r += 32) {  // a query past n_q: P = 0 (exp2(-inf)), dS = 0
        s.lse[stage][r] = q0 + r < n_q ? lse_log2[q0 + r] : INFINITY;
        s.delta[stage][r] = q0 + r < n_q ? delta[q0 + r] : 0.0f;
      }
      if (lane != 0) {
        mbarrier_arrive(&s.full[stage]);
        continue;
      }
      mbarrier_arrive_expect_tx(&s.full[stage], 2 * kM * D * 2);
      for (int c = 0; c < D / 64; ++c) {
        tma_load_3d(s.q[stage] + c * kM * 64, &q_map, &s.full[stage], 64 * c, q0, head);
        tma_load_3d(s.dout[stage] + c * kM * 64, &do_map, &s.full[stage], 64 * c, q0, head);
      }
    }
    return;
  }

  setmaxnreg_inc<232>();
  const int half = warp_group - 1;  // this consumer's keys: k0 + 64 half ..
  const int warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32, g = lane / 4, tq = lane % 4;
  const float scale_log2 = scale * kLog2e;
  // Accumulator element 4j + i of a 64-row product is row 16 warp + g + 8 (i / 2), column 8j + 2 tq + i % 2.
  const int my_key = k0 + 64 * half + 16 * warp + g;  // + 8 (i / 2)
  const __nv_bfloat16* k_half = s.k + 64 * half * 64;
  const __nv_bfloat16* v_half = s.v + 64 * half * 64;
  // This warp group's part of dQ = dS K (kM queries x D): 64 queries (dS^T's box dq_box) x kDqN columns
  // from dq_col0, whose B is K's columns dq_col0 .., in box dq_col0 / 64 at column dq_col0 % 64.
  constexpr int kDqN = kM == 64 ? D / 2 : D;
  const int dq_box = kM == 64 ? 0 : half, dq_col0 = kM == 64 ? D / 2 * half : 0;
  const __nv_bfloat16* k_cols = s.k + dq_col0 / 64 * kN * 64 + dq_col0 % 64;
  float dk_acc[D / 2], dv_acc[D / 2];  // 64 keys x D each; the first tile's wgmma write them

  mbarrier_wait(&s.kv_full, 0);
  for (int t = 0; t < tiles; ++t) {
    const int stage = t % kStages, q0 = first + t * kM;
    mbarrier_wait(&s.full[stage], t / kStages % 2);
    const __nv_bfloat16 *q_tile = s.q[stage], *do_tile = s.dout[stage];

    // S^T = K Q^T and dP^T = V dO^T: 64 keys x kM queries, k-steps of 16 over d (box kk / 4, 32 bytes each).
    float st[kM / 2], dpt[kM / 2];
    wgmma_fence();
    for (int kk = 0; kk < D / 16; ++kk)
      wgmma_ss<kM>(st, smem_descriptor(k_half + kk / 4 * kN * 64 + kk % 4 * 16),
                   smem_descriptor(q_tile + kk / 4 * kM * 64 + kk % 4 * 16), kk > 0);
    wgmma_commit();
    for (int kk = 0; kk < D / 16; ++kk)
      wgmma_ss<kM>(dpt, smem_descriptor(v_half + kk / 4 * kN * 64 + kk % 4 * 16),
                   smem_descriptor(do_tile + kk / 4 * kM * 64 + kk % 4 * 16), kk > 0);
    wgmma_commit();

    // P^T = exp2(S^T scale log2(e) - lse log2(e)) while dP^T is computed; the masks only where needed.
    wgmma_wait<1>();
    const bool needs_mask = k0 + kN > n_k || (causal && k0 + kN - 1 > q0 + diagonal);
#pragma unroll
    for (int e = 0; e < kM / 2; ++e) {
      const int key = my_key + 8 * (e % 4 / 2), query = 8 * (e / 4) + 2 * tq + e % 2;
      st[e] = exp2f(st[e] * scale_log2 - s.lse[stage][query]);
      if (needs_mask && (key >= n_k || (causal && key > q0 + query + diagonal))) st[e] = 0.0f;
    }
    // dS^T = P^T (dP^T - D); both as bf16 A fragments: k-step kk (queries 16 kk ..) is elements 8 kk ..
    wgmma_wait<0>();
    uint32_t p_frag[kM / 16][4], ds_frag[kM / 16][4];
#pragma unroll
    for (int e = 0; e < kM / 2; e += 2) {
      const int query = 8 * (e / 4) + 2 * tq;
      const float ds0 = st[e] * (dpt[e] - s.delta[stage][query]),
                  ds1 = st[e + 1] * (dpt[e + 1] - s.delta[stage][query + 1]);
      p_frag[e / 8][e % 8 / 2] = pack_bf16(st[e], st[e + 1]);
      ds_frag[e / 8][e % 8 / 2] = pack_bf16(ds0, ds1);
    }

    // dV += P^T dO and dK += dS^T Q: B = dO, Q read MN-major (d contiguous), 16 queries (2048 bytes) a step.
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kM / 16; ++kk)
      wgmma_rs<D, true>(dv_acc, p_frag[kk], smem_descriptor_mn_major(do_tile + kk * 16 * 64, kM * 128),
                        t > 0 || kk > 0);
#pragma unroll
    for (int kk = 0; kk < kM / 16; ++kk)
      wgmma_rs<D, true>(dk_acc, ds_frag[kk], smem_descriptor_mn_major(q_tile + kk * 16 * 64, kM * 128),
                        t > 0 || kk > 0);
    wgmma_commit();

    // dS^T into shared memory, row = key; the 16-byte chunk c (queries 8c ..) in box c / 8, at (c % 8) ^
    // (row % 8) of the row (128B swizzle).
    __nv_bfloat16* ds_tile = s.ds[t % 2];
#pragma unroll
    for (int e = 0; e < kM / 4; ++e) {
      const int row = 64 * half + 16 * warp + g + 8 * (e % 2), chunk = e / 2;
      *reinterpret_cast<uint32_t*>(ds_tile + chunk / 8 * kN * 64 + row * 64 + (chunk % 8 ^ row % 8) * 8 +
                                   2 * tq) = ds_frag[e / 4][e % 4];
    }
    fence_proxy_async();  // the stores, before the other warp group's wgmma reads them
    mbarrier_arrive(&s.ds_ready[t % 2]);
    mbarrier_wait(&s.ds_ready[t % 2], t / 2 % 2);

    // dQ = dS K: A = dS (queries contiguous: MN-major), B = K (MN-major), 16 keys (2048 bytes) a step.
    float dq[kDqN / 2];
    wgmma_fence();
    for (int kk = 0; kk < kN / 16; ++kk)
      wgmma_ss<kDqN, true, true>(dq, smem_descriptor_mn_major(ds_tile + dq_box * kN * 64 + kk * 16 * 64, 0),
                                 smem_descriptor_mn_major(k_cols + kk * 16 * 64, kN * 128), kk > 0);
    wgmma_commit();
    wgmma_wait<1>();  // dV and dK's wgmma are done: the stage goes back to the producer
    if (lane == 0) mbarrier_arrive(&s.empty[stage]);
    wgmma_wait<0>();
#pragma unroll
    for (int e = 0; e < kDqN / 2; e += DqAtomics::kFloats) {
      const int query = q0 + 64 * dq_box + 16 * warp + g + 8 * (e % 4 / 2);
      if (query >= n_q) continue;
      float* at =
          dq_accum + (static_cast<size_t>(head) * n_q + query) * D + dq_col0 + 8 * (e / 4) + 2 * tq + e % 2;
      DqAtomics::add(at, &dq[e]);
    }
  }

  // dK (times scale) and dV as bf16 pairs.
#pragma unroll
  for (int e = 0; e < D / 2; e += 2) {
    const int key = my_key + 8 * (e % 4 / 2);
    if (key >= n_k) continue;
    const size_t at = (static_cast<size_t>(head) * n_k + key) * D + 8 * (e / 4) + 2 * tq;
    *reinterpret_cast<uint32_t*>(dk + at) = pack_bf16(scale * dk_acc[e], scale * dk_acc[e + 1]);
    *reinterpret_cast<uint32_t*>(dv + at) = pack_bf16(dv_acc[e], dv_acc[e + 1]);
  }
}

template <int D, int kM, class DqAtomics>
void launch_wgmma(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                  const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                  __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, float scale, bool causal) {
  constexpr int kBytes = sizeof(Shared<D, kM>) + 1024;  // + alignment to 1024 (the 128B swizzle's period)
  cudaFuncSetAttribute(flash_bwd_wgmma<D, kM, DqAtomics>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       kBytes);
  around_main_kernel<D>(o, lse, dout, dq, bh * n_q, scale,
                        [&](float* dq_accum, const float* delta, const float* lse_log2) {
                          const dim3 grid((n_k + kN - 1) / kN, bh);
                          flash_bwd_wgmma<D, kM, DqAtomics><<<grid, kThreads, kBytes>>>(
                              tensor_map_3d_128b(q, bh, n_q, D, kM), tensor_map_3d_128b(k, bh, n_k, D, kN),
                              tensor_map_3d_128b(v, bh, n_k, D, kN), tensor_map_3d_128b(dout, bh, n_q, D, kM),
                              lse_log2, delta, dq_accum, dk, dv, n_q, n_k, scale, causal);
                        });
}

// The puzzle's entry point for versions 3 to 5.
template <class Tiles, class DqAtomics>
void flash_bwd_wgmma_versions(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                              const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout,
                              __nv_bfloat16* dq, __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q,
                              int n_k, int d, float scale, bool causal) {
  if (d == 64)
    launch_wgmma<64, Tiles::queries(64), DqAtomics>(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, scale,
                                                    causal);
  if (d == 128)
    launch_wgmma<128, Tiles::queries(128), DqAtomics>(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, scale,
                                                      causal);
}

}  // namespace
