// Puzzle 6 · Flash-attention backward — version 6: a cheaper tf32 split and ldmatrix loads.
// Over 5_d128_split_queries.cu: the same kernels (version 5's at d = 128, version 4's below), with fewer
// instructions between their mma. Version 5 at d = 128 is latency-bound (two warps a scheduler, none ready
// in 60% of the cycles), and of its 6,856 instructions per warp and tile of queries only 960 are mma: about
// 2,500 split operands into tf32 pairs and 1,040 are shared-memory loads of one float each. Two changes:
// - dV, dK and dq, the products that sum the gradients, split their operands by cutting big = x's low 13
//   bits instead of rounding them: 2 instructions instead of 3 (three_tf32.cuh's split_truncated). Its
//   error always shrinks a product, by 2^-22 of it on average: nothing beside the tolerance in a gradient,
//   but too much in S^T and dP^T, whose errors exp() and dS = P (dP - D) enlarge
//   (truncated_split_ldmatrix.cuh has the measurements), so those two keep the rounded split;
// - the K, V, Q and dO fragments of S^T and dP^T come by ldmatrix, one instruction for an A fragment or for
//   two B fragments instead of 4 loads (truncated_split_ldmatrix.cuh).
// 6,312 instructions per warp and tile at d = 128 (8% fewer), 250 registers; 5,792 at d = 64 (7% fewer), 234
// registers. Not yet timed on a GPU: a variant that also cut S^T's and dP^T's splits (5,928 instructions)
// and one that cut dP^T's (6,120) ran 8-9% faster than version 5 at d = 128 on an H200, the second ahead of
// torch on all 24 bench shapes, but it failed a check (the puzzle's measurement history has the runs).
// The spec is in the stub, 06_flash_backward.cu; the walk-through is the puzzle's docs page.
#include "d128_split_queries.cuh"
#include "truncated_split_ldmatrix.cuh"

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  split_queries::flash_bwd_with<tensor_cores::LdmatrixTruncatedSplit>(q, k, v, o, lse, dout, dq, dk, dv, bh,
                                                                      n_q, n_k, d, scale, causal);
}
