// expect: failed
// expect-diagnosis: delta_omitted
// expect-sim-cases: 1x1x1x16_causal
// Bug: dS = P * dP, without subtracting D_i = rowsum(dout * o): the softmax's Jacobian has two terms
// and this keeps one. dv is still right (it does not involve dS); dq and dk are not.
#include "backward.cuh"

__global__ void flash_bwd_kernel(Attention a) {
  key_thread(a, Variant{.subtract_delta = false}, atomic_add_dq);
}

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  const Attention a = zeroed_dq(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal);
  flash_bwd_kernel<<<key_grid(n_k, bh), kKeysPerBlock>>>(a);
}
