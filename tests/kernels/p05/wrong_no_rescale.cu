// expect: failed
// expect-diagnosis: o_not_rescaled
// expect-sim-cases: 1x17x17x32_causal
// Bug: when the max grows, l is rescaled by exp(m_old - m_new) but the accumulator O is not: the keys
// added under an old, smaller max keep their larger weights in O, and o = O / l comes out wrong while
// lse (from m and l alone) is right.
#include "attention_rows.cuh"

__global__ void attention_no_rescale(Problem p) {
  const auto update_l_only = [](RowState& row, float s, const float* v, int d) {
    const float m = fmaxf(row.m, s);
    if (m == -INFINITY) return;
    const float p = expf(s - m);
    row.l = row.l * expf(row.m - m) + p;
    for (int x = 0; x < d; ++x) row.acc[x] += p * v[x];  // should be row.acc[x] * exp(row.m - m) + p * v[x]
    row.m = m;
  };
  attention_rows(p, visible, update_l_only, finish_row);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_no_rescale<<<row_grid(bh, n_q), kRowsPerBlock>>>({q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
