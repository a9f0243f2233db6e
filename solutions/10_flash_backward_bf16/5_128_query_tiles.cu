// Puzzle 10 · Flash attention backward in bf16 — version 5: tiles of 128 queries at d = 64.
// Over 4_float2_dq_atomics.cu, at d = 64 only (FlashAttention-3's tile there): a block takes its queries
// 128 at a time instead of 64, so each warp group computes S^T and dP^T as m64n128 (64 + 64 accumulator
// registers, where d = 64's dK and dV need only 32 + 32), and dQ = dS K is split by rows: each warp group
// 64 of the 128 queries, all 64 columns (N = 64, 128 keys), not half the columns of 64 queries.
//   - half as many tiles per block: half the stage and dS handshakes (barrier waits), half the dQ passes,
//     and S^T, dP^T as 4 wgmma of N = 128 where version 4 issues 8 of N = 64;
//   - as many dQ atomics as version 4: one float2 per two columns of a query, per block of keys.
// At d = 128 the registers are taken (dK and dV: 64 + 64) and version 4's tiles stay.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "128_query_tiles.cuh"
#include "float2_dq_atomics.cuh"
#include "wgmma.cuh"

void flash_bwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                    const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                    __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, int d, float scale,
                    bool causal) {
  flash_bwd_wgmma_versions<QueryTiles128AtD64, Float2DqAtomics>(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q,
                                                                n_k, d, scale, causal);
}
