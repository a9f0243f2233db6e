// expect: failed
// expect-diagnosis: missing_running_max
// expect-sim-cases: negative_logits
// Bug: the running max starts at 0 instead of -inf. Harmless while some score of a row is above about
// -87, but on the negative_logits case every score is near -200: exp(s - 0) underflows to 0 for every key,
// l stays 0, and those rows come out as o = 0, lse = -inf although they see keys.
#include "attention_rows.cuh"

__global__ void attention_max_from_zero(Problem p) {
  const auto update_from_zero = [](RowState& row, float s, const float* v, int d) {
    if (row.m == -INFINITY) row.m = 0.0f;  // should stay -inf until the first score
    const float m = fmaxf(row.m, s);
    const float rescale = expf(row.m - m), e = expf(s - m);
    row.l = row.l * rescale + e;
    for (int x = 0; x < d; ++x) row.acc[x] = row.acc[x] * rescale + e * v[x];
    row.m = m;
  };
  attention_rows(p, visible, update_from_zero, finish_row);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_max_from_zero<<<row_grid(bh, n_q), kRowsPerBlock>>>(
      {q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
