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
#include "d128_split_queries.cuh"

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  split_queries::flash_bwd_with<tensor_cores::ScalarLoadsRoundedSplit>(q, k, v, o, lse, dout, dq, dk, dv, bh,
                                                                       n_q, n_k, d, scale, causal);
}
