// expect: failed
// expect-diagnosis: p_without_lse
// expect-sim-cases: 1x1x1x16_causal
// Bug: P recomputed as exp(scale s) without subtracting lse: each row of P is off by the factor
// exp(lse_i), so each row of dq is the right row times its own factor (and the large logits overflow).
#include "backward.cuh"

__global__ void flash_bwd_kernel(Attention a) {
  key_thread(a, Variant{.subtract_lse = false}, atomic_add_dq);
}

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  const Attention a = zeroed_dq(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal);
  flash_bwd_kernel<<<key_grid(n_k, bh), kKeysPerBlock>>>(a);
}
