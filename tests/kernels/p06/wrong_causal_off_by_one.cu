// expect: failed
// expect-diagnosis: causal_mask_shifted
// expect-sim-cases: 1x17x17x32_causal
// Bug: the causal test is j <= i + (n_k - n_q) + 1: every query also sees the key just after its own
// diagonal. Rows that saw no key now see one, with lse = -inf: exp(s + inf) is inf.
#include "backward.cuh"

__global__ void flash_bwd_kernel(Attention a) {
  key_thread(a, Variant{.diagonal_shift = 1}, atomic_add_dq);
}

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  const Attention a = zeroed_dq(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal);
  flash_bwd_kernel<<<key_grid(n_k, bh), kKeysPerBlock>>>(a);
}
