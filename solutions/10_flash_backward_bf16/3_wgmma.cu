// Puzzle 10 · Flash attention backward in bf16 — version 3: Hopper's warp-group MMA.
// Over 2_fa2_tiles.cu (FlashAttention-3's backward, simplified):
//   - the five products are wgmma (puzzle 11) issued by two consumer warp groups, 64 of the block's 128
//     keys each: S^T = K Q^T and dP^T = V dO^T (m64n64k16, K and Q / V and dO from shared memory), then
//     dV += P^T dO and dK += dS^T Q with P^T and dS^T straight from the registers S^T and dP^T were
//     computed in (no shared memory for P: a warp group's S^T rows are its dV rows);
//   - dS^T still goes through shared memory, for dQ = dS K: 64 queries x 128 keys, its d columns split
//     between the two warp groups (each reads both halves of dS, which an mbarrier of 256 arrivals
//     announces; two tiles of dS, so that one barrier a tile suffices);
//   - a producer warp loads K and V once and Q, dO (TMA, 128B-swizzled, zeros past n_q: 3D tensor maps
//     [bh][n][d]) and lse, D into a 2-stage mbarrier pipeline, and gives its registers to the consumers
//     (setmaxnreg): the accumulators of dK and dV (d / 2 floats each), S^T and dP^T (32 each) and dQ
//     (d / 4) stay in registers;
//   - the operands the products read transposed (dO and Q for dV and dK, dS and K for dQ) are read
//     MN-major by the wgmma's transpose bits, no ldmatrix .trans.
// The masks, the fp32 dQ accumulator and the kernels before and after (flash_bwd_rows.cuh) are
// 2_fa2_tiles.cu's. The kernel is wgmma.cuh, shared with versions 4 and 5: here with tiles of 64 queries
// and one atomicAdd per float of dQ (QueryTiles64, ScalarDqAtomics).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "wgmma.cuh"

void flash_bwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                    const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                    __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, int d, float scale,
                    bool causal) {
  flash_bwd_wgmma_versions<QueryTiles64, ScalarDqAtomics>(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d,
                                                          scale, causal);
}
