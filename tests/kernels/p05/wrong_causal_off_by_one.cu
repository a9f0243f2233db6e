// expect: failed
// expect-diagnosis: causal_off_by_one
// expect-sim-cases: 1x1x1x16_causal
// Bug: the causal test is strict, j < i + n_k - n_q, so each query misses the key on its diagonal (and
// the last query of a square problem misses itself).
#include "attention_rows.cuh"

__global__ void attention_mask_off_by_one(Problem p) {
  const auto visible_strict = [](const Problem& p, int i, int j) {
    return j < p.n_k && (!p.causal || j < i + p.n_k - p.n_q);  // should be <=
  };
  attention_rows(p, visible_strict, online_update, finish_row);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_mask_off_by_one<<<row_grid(bh, n_q), kRowsPerBlock>>>(
      {q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
