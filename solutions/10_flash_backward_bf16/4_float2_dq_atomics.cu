// Puzzle 10 · Flash attention backward in bf16 — version 4: dQ added two floats at a time.
// Over 3_wgmma.cu: each thread adds its dQ pairs (two neighbouring columns of a query row, 8-byte aligned)
// to the fp32 accumulator with sm_90's float2 atomicAdd, one instruction per pair instead of one per float.
// The dQ atomics are the kernel's heaviest traffic at the L2 (they reduce there, not in the SM): half the
// atomic instructions is half the requests the L2 serves for them, with the same bytes. Each float of the
// pair is still added atomically on its own, so the sum is the one of version 3, in some order.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "float2_dq_atomics.cuh"
#include "wgmma.cuh"

void flash_bwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                    const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                    __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, int d, float scale,
                    bool causal) {
  flash_bwd_wgmma_versions<QueryTiles64, Float2DqAtomics>(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d,
                                                          scale, causal);
}
