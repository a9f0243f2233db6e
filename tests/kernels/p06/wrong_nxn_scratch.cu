// expect: failed
// expect-diagnosis: scratch_too_large
// expect-sim-cases: 1x640x640x16_causal
// Bug: not in the values, in the memory. P is computed once into a bh x n_q x n_k scratch buffer and
// read back by the key threads: right gradients, but the n_q x n_k matrix is exactly what FlashAttention
// never stores (at n = 16384 and 16 heads it is 16 GiB). The scratch rule rejects it.
#include "backward.cuh"

__global__ void store_p(Attention a, float* p) {
  const int h = blockIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= a.n_k) return;
  for (int i = 0; i < a.n_q; ++i)
    p[(static_cast<size_t>(h) * a.n_q + i) * a.n_k + j] = probability(a, h, i, j, Variant{});
}

__global__ void flash_bwd_kernel(Attention a, const float* p) {
  const int h = blockIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= a.n_k) return;
  key_thread(
      a, h, j, Variant{}, [&](int i) { return p[(static_cast<size_t>(h) * a.n_q + i) * a.n_k + j]; },
      atomic_add_dq);
}

void flash_bwd(const float* q, const float* k, const float* v, const float* o, const float* lse,
               const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
               float scale, bool causal) {
  const Attention a = zeroed_dq(q, k, v, o, lse, dout, dq, dk, dv, bh, n_q, n_k, d, scale, causal);
  float* p = nullptr;
  cudaMalloc(&p, sizeof(float) * bh * n_q * n_k);
  store_p<<<key_grid(n_k, bh), kKeysPerBlock>>>(a, p);
  flash_bwd_kernel<<<key_grid(n_k, bh), kKeysPerBlock>>>(a, p);
  cudaFree(p);
}
