// expect: failed
// expect-diagnosis: l_not_rescaled
// expect-sim-cases: 1x17x17x32_causal
// Bug: when a key raises the running max, O is rescaled by exp(m_old - m_new) but the sum l is not: l ends
// up larger than the row's sum of exp(s - m), so o is too small and lse too large by the same factor, as
// with unmasked tail keys. The checker tells the two apart: unmasked keys of score 0 add whole units to
// the row's sum of exp(s), a missed rescale adds a fraction.
#include "attention_rows.cuh"

__global__ void attention_l_not_rescaled(Problem p) {
  const auto update_without_l_rescale = [](RowState& row, float s, const float* v, int d) {
    const float m = fmaxf(row.m, s);
    if (m == -INFINITY) return;  // nothing visible yet
    const float rescale = expf(row.m - m), e = expf(s - m);
    row.l += e;  // should be row.l * rescale + e
    for (int x = 0; x < d; ++x) row.acc[x] = row.acc[x] * rescale + e * v[x];
    row.m = m;
  };
  attention_rows(p, visible, update_without_l_rescale, finish_row);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_l_not_rescaled<<<row_grid(bh, n_q), kRowsPerBlock>>>(
      {q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
