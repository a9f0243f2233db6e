// expect: failed
// expect-diagnosis: lse_wrong_base
// expect-sim-cases: 1x17x17x32_causal
// Bug: lse is written as m + log2(l): the logsumexp must be the natural log, m + log(l).
#include "attention_rows.cuh"

__global__ void attention_lse_log2(Problem p) {
  const auto finish_log2 = [](const RowState& row, float* o, float* lse, int d) {
    finish_row(row, o, lse, d);
    if (row.l > 0.0f) *lse = row.m + log2f(row.l);  // should be logf
  };
  attention_rows(p, visible, online_update, finish_log2);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_lse_log2<<<row_grid(bh, n_q), kRowsPerBlock>>>({q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
