// Puzzle 6's test kernels, built from one plain algorithm: a thread per key j of a head walks every query
// i that sees it, recomputes p = exp(scale q_i.k_j - lse_i) and adds
//     dv_j += p dout_i,   dk_j += scale ds q_i,   dq_i += scale ds k_j,   ds = p (dout_i.v_j - D_i),
// D_i = dout_i.o_i. dk and dv stay in the thread; dq_i gets every key's contribution, so it goes through
// the kernel's own AddDq (atomicAdd in a right kernel). Each wrong kernel changes one step (Variant).
// Slow (no shared memory, nothing reused across threads) but short: bugs, not speed, are under test.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

constexpr int kMaxD = 128;
constexpr int kKeysPerBlock = 64;

struct Attention {
  const float *q, *k, *v, *o, *lse, *dout;
  float *dq, *dk, *dv;
  int n_q, n_k, d;
  float scale;
  bool causal;
};

struct Variant {
  bool subtract_lse = true;    // false: p = exp(scale s), never normalized
  bool lse_base_2 = false;     // p = exp2(scale s log2(e) - lse): lse taken for a base-2 logsumexp
  bool subtract_delta = true;  // false: ds = p dp, D left out
  bool scale_dq_dk = true;     // false: dq and dk without their factor scale
  int diagonal_shift = 0;      // the causal diagonal moved by this many keys
};

// The launcher's arguments in one struct.
inline Attention attention_args(const float* q, const float* k, const float* v, const float* o,
                                const float* lse, const float* dout, float* dq, float* dk, float* dv, int n_q,
                                int n_k, int d, float scale, bool causal) {
  return {q, k, v, o, lse, dout, dq, dk, dv, n_q, n_k, d, scale, causal};
}

// The same, with dq zeroed first, for the kernels that add into it.
inline Attention zeroed_dq(const float* q, const float* k, const float* v, const float* o, const float* lse,
                           const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k,
                           int d, float scale, bool causal) {
  cudaMemsetAsync(dq, 0, sizeof(float) * bh * n_q * d);
  return attention_args(q, k, v, o, lse, dout, dq, dk, dv, n_q, n_k, d, scale, causal);
}

inline dim3 key_grid(int n_k, int bh) {
  return dim3((n_k + kKeysPerBlock - 1) / kKeysPerBlock, bh);
}

__device__ inline float row_dot(const float* a, const float* b, int d) {
  float sum = 0.0f;
  for (int c = 0; c < d; ++c) sum += a[c] * b[c];
  return sum;
}

// Bottom-right causal alignment: query i sees key j iff j <= i + n_k - n_q (+ the variant's shift).
__device__ inline bool sees(const Attention& a, int i, int j, const Variant& how) {
  return !a.causal || j <= i + a.n_k - a.n_q + how.diagonal_shift;
}

// P[i][j] of head h, recomputed from q, k and lse (zero where masked).
__device__ inline float probability(const Attention& a, int h, int i, int j, const Variant& how) {
  if (!sees(a, i, j, how)) return 0.0f;
  const size_t row = static_cast<size_t>(h) * a.n_q + i, key = static_cast<size_t>(h) * a.n_k + j;
  const float s = a.scale * row_dot(a.q + row * a.d, a.k + key * a.d, a.d);
  if (how.lse_base_2) return exp2f(s * 1.44269504f - a.lse[row]);
  return how.subtract_lse ? expf(s - a.lse[row]) : expf(s);
}

// The thread of key j of head h (j < n_k). P(i) gives P[i][j]; AddDq(dq element, value) adds to dq.
template <class P, class AddDq>
__device__ void key_thread(const Attention& a, int h, int j, const Variant& how, P p_of, AddDq add_dq) {
  const size_t key = (static_cast<size_t>(h) * a.n_k + j) * a.d;
  const float grad_scale = how.scale_dq_dk ? a.scale : 1.0f;
  float dk[kMaxD] = {}, dv[kMaxD] = {};
  for (int i = 0; i < a.n_q; ++i) {
    const float p = p_of(i);
    if (p == 0.0f) continue;  // masked (or underflowed): adds nothing
    const size_t row = (static_cast<size_t>(h) * a.n_q + i) * a.d;
    const float delta = how.subtract_delta ? row_dot(a.dout + row, a.o + row, a.d) : 0.0f;
    const float ds = grad_scale * p * (row_dot(a.dout + row, a.v + key, a.d) - delta);
    for (int c = 0; c < a.d; ++c) {
      dv[c] += p * a.dout[row + c];
      dk[c] += ds * a.q[row + c];
      add_dq(a.dq + row + c, ds * a.k[key + c]);
    }
  }
  for (int c = 0; c < a.d; ++c) {
    a.dk[key + c] = dk[c];
    a.dv[key + c] = dv[c];
  }
}

// A key thread that recomputes P as `how` says, for the kernels whose bug is not in P's storage.
template <class AddDq>
__device__ void key_thread(const Attention& a, const Variant& how, AddDq add_dq) {
  const int h = blockIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= a.n_k) return;
  key_thread(
      a, h, j, how, [&](int i) { return probability(a, h, i, j, how); }, add_dq);
}

__device__ inline void atomic_add_dq(float* dq, float value) {
  atomicAdd(dq, value);
}
