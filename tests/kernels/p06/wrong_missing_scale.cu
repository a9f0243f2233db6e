// expect: failed
// expect-diagnosis: gradient_scaled
// expect-sim-cases: 1x17x17x32_causal
// Bug: dq = dS K and dk = dS^T Q without the factor scale: the scores were scale * q.k, so the chain
// rule brings scale back into both. Every element of dq and dk is 1/scale times too large.
#include "backward.cuh"

__global__ void flash_bwd_kernel(Attention a) {
  key_thread(a, Variant{.scale_dq_dk = false}, atomic_add_dq);
}

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  const Attention a = zeroed_dq(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal);
  flash_bwd_kernel<<<key_grid(n_k, bh), kKeysPerBlock>>>(a);
}
