// expect: failed
// expect-diagnosis: dq_lost_updates
// backends: gpu
// Bug: a data race. Every key adds its term to dq with a plain dq[i] += ...: a load, an add, a store.
// Threads of other keys (the rest of the warp, other blocks) load the same dq element between this
// thread's load and store, and all but one of their terms are lost. GPU only: the simulator runs a
// block's threads one at a time between barriers, and detects no race on global memory, so there the
// loads and stores never interleave and this kernel passes. wrong_dq_plain_store.cu is the simulator's
// deterministic version of the same mistake.
#include "backward.cuh"

__global__ void flash_bwd_kernel(Attention a) {
  key_thread(a, Variant{}, [](float* dq, float value) { *dq += value; });
}

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  const Attention a = zeroed_dq(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal);
  flash_bwd_kernel<<<key_grid(n_k, bh), kKeysPerBlock>>>(a);
}
