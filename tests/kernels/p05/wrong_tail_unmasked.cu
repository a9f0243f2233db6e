// expect: failed
// expect-diagnosis: key_tail_unmasked
// expect-sim-cases: 1x1x1x16
// Bug: the last tile of keys is zero-filled past n_k, but those keys are not masked: each counts with
// score 0 and v = 0, so l grows (lse too large) and o shrinks by the same factor. Only cases whose n_k
// is not a multiple of the tile (16) fail.
#include "attention_rows.cuh"

__global__ void attention_tail_unmasked(Problem p) {
  const auto visible_without_tail = [](const Problem& p, int i, int j) {
    return !p.causal || j <= i + p.n_k - p.n_q;  // should also require j < n_k
  };
  attention_rows(p, visible_without_tail, online_update, finish_row);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_tail_unmasked<<<row_grid(bh, n_q), kRowsPerBlock>>>(
      {q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
