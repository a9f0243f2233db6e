// expect: failed
// expect-diagnosis: causal_top_left
// expect-sim-cases: 2x127x129x64_causal
// Bug: the causal mask is aligned top-left, j <= i, as if n_q = n_k. With more keys than queries each
// query misses the keys it should see; with more queries than keys, rows that should be empty are not.
#include "attention_rows.cuh"

__global__ void attention_top_left(Problem p) {
  const auto visible_top_left = [](const Problem& p, int i, int j) {
    return j < p.n_k && (!p.causal || j <= i);  // should be j <= i + n_k - n_q
  };
  attention_rows(p, visible_top_left, online_update, finish_row);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_top_left<<<row_grid(bh, n_q), kRowsPerBlock>>>({q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
