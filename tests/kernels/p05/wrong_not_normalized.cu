// expect: failed
// expect-diagnosis: o_not_normalized
// expect-sim-cases: 1x17x17x32_causal
// Bug: o is written as O itself, never divided by l: each row comes out l times too large (lse is right).
#include "attention_rows.cuh"

__global__ void attention_not_normalized(Problem p) {
  const auto finish_without_division = [](const RowState& row, float* o, float* lse, int d) {
    finish_row(row, o, lse, d);
    for (int x = 0; x < d; ++x) o[x] = row.acc[x];  // should be row.acc[x] / row.l
  };
  attention_rows(p, visible, online_update, finish_without_division);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_not_normalized<<<row_grid(bh, n_q), kRowsPerBlock>>>(
      {q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
