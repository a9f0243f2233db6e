// expect: failed
// expect-diagnosis: scale_hard_coded
// expect-sim-cases: scale_0.3
// Bug: the scores are scaled by 1/sqrt(d), the usual value, instead of the `scale` argument: right on
// every case but the one that passes another scale.
#include "attention_rows.cuh"

__global__ void attention_hard_coded_scale(Problem p) {
  p.scale = rsqrtf(static_cast<float>(p.d));  // should stay the launcher's argument
  attention_rows(p, visible, online_update, finish_row);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  attention_hard_coded_scale<<<row_grid(bh, n_q), kRowsPerBlock>>>(
      {q, k, v, o, lse, n_q, n_k, d, scale, causal});
}
