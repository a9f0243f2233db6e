// expect: passed
// Correct, written differently: no tensor cores at all. One thread per query row runs puzzle 5's online
// softmax in float over the bf16 inputs (converted as read) and rounds o to bf16 once at the end. Slow,
// and more exact than FlashAttention-2 (P never rounded): the judge's allowance is room, not a target.
#include <cuda_bf16.h>

#include <cmath>

constexpr int kMaxD = 128;

__global__ void rows_kernel(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                            __nv_bfloat16* o, float* lse, int n_q, int n_k, int d, float scale, bool causal) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, head = blockIdx.y;
  if (i >= n_q) return;
  const __nv_bfloat16* qi = q + (static_cast<size_t>(head) * n_q + i) * d;
  const __nv_bfloat16* kh = k + static_cast<size_t>(head) * n_k * d;
  const __nv_bfloat16* vh = v + static_cast<size_t>(head) * n_k * d;
  const int seen = causal ? min(n_k, max(0, i + n_k - n_q + 1)) : n_k;
  float m = -INFINITY, l = 0, acc[kMaxD] = {};
  for (int j = 0; j < seen; ++j) {
    float s = 0;
    for (int x = 0; x < d; ++x) s += __bfloat162float(qi[x]) * __bfloat162float(kh[j * d + x]);
    s *= scale;
    const float m_new = fmaxf(m, s), c = expf(m - m_new), p = expf(s - m_new);
    l = l * c + p;
    for (int x = 0; x < d; ++x) acc[x] = acc[x] * c + p * __bfloat162float(vh[j * d + x]);
    m = m_new;
  }
  __nv_bfloat16* oi = o + (static_cast<size_t>(head) * n_q + i) * d;
  for (int x = 0; x < d; ++x) oi[x] = __float2bfloat16(seen > 0 ? acc[x] / l : 0.0f);
  lse[static_cast<size_t>(head) * n_q + i] = seen > 0 ? m + logf(l) : -INFINITY;
}

void flash_fwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
                    float* lse, int bh, int n_q, int n_k, int d, float scale, bool causal) {
  rows_kernel<<<dim3((n_q + 63) / 64, bh), 64>>>(q, k, v, o, lse, n_q, n_k, d, scale, causal);
}
