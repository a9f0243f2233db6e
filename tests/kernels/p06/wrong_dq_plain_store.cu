// expect: failed
// expect-diagnosis: dq_lost_updates
// expect-sim-cases: 1x17x17x32_causal
// Bug: each key stores its contribution to dq with a plain store, dq[i] = ..., as it does for its own
// dk and dv rows. But dq_i is a sum over every key (every block of keys): the stores overwrite each other
// and one key's term is left. The simulator runs this the same way every time: always wrong.
#include "backward.cuh"

__global__ void flash_bwd_kernel(Attention a) {
  key_thread(a, Variant{}, [](float* dq, float value) { *dq = value; });
}

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  const Attention a = zeroed_dq(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal);
  flash_bwd_kernel<<<key_grid(n_k, bh), kKeysPerBlock>>>(a);
}
