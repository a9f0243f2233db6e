// expect: failed
// expect-diagnosis: lse_wrong_base
// expect-sim-cases: 1x1x1x16_causal
// Bug: lse taken for a base-2 logsumexp, P = exp2(scale s log2(e) - lse): lse is the natural log of the
// row's sum (puzzle 5's contract), so each row of P is off by exp(lse_i (1 - ln 2)).
#include "backward.cuh"

__global__ void flash_bwd_kernel(Attention a) {
  key_thread(a, Variant{.lse_base_2 = true}, atomic_add_dq);
}

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  const Attention a = zeroed_dq(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal);
  flash_bwd_kernel<<<key_grid(n_k, bh), kKeysPerBlock>>>(a);
}
