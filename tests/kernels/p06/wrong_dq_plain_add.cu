// expect: failed
// expect-gpu-diagnosis: dq_lost_updates
// expect-sim-diagnosis: sim_global_race
// Bug: a data race. Every key adds its term to dq with a plain dq[i] += ...: a load, an add, a store.
// Threads of other keys (the rest of the warp, other blocks) load the same dq element between this
// thread's load and store, and all but one of their terms are lost. The simulator names the race
// (global_race: threads of different warps, or of different blocks, update one element with neither
// an atomic nor a barrier between them), whatever the values came out as.
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
