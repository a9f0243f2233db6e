// expect: failed
// expect-diagnosis: dq_not_zeroed
// expect-sim-cases: 1x1x1x16_causal 1x17x17x32_causal
// Bug: dq is never zeroed: atomicAdd adds into whatever dq held (the harness fills outputs with NaN).
#include "backward.cuh"

__global__ void flash_bwd_kernel(Attention a) {
  key_thread(a, Variant{}, atomic_add_dq);
}

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  flash_bwd_kernel<<<key_grid(n_k, bh), kKeysPerBlock>>>(
      attention_args(q, k, v, o, lse, dout, dq, dk, dv, n_q, n_k, d, scale, causal));
}
