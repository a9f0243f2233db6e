// expect: failed
// expect-diagnosis: empty_rows_wrong nan_output
// expect-sim-cases: large_logits_causal
// Bug: o = O / l without a test for l = 0: a causal row that sees no key (n_q > n_k) gets 0 / 0 = NaN
// instead of o = 0.
#include "attention_rows.cuh"

__global__ void attention_empty_rows_nan(Problem p) {
  const auto finish_unguarded = [](const RowState& row, float* o, float* lse, int d) {
    for (int x = 0; x < d; ++x) o[x] = row.acc[x] / row.l;  // 0 / 0 where the row saw no key
    *lse = row.m + logf(row.l);
  };
  attention_rows(p, visible, online_update, finish_unguarded);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_empty_rows_nan<<<row_grid(bh, n_q), kRowsPerBlock>>>(
      {q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
