// expect: failed
// expect-diagnosis: scratch_too_large
// expect-sim-cases: 1x640x640x16_causal
// Bug: standard attention, not flash attention. The launcher allocates the n_q x n_k matrix S per head,
// one kernel fills it with the scores and a second takes each row's softmax and P V. The values are
// right, but the memory grows as n^2: only the case whose S exceeds the O(bh * n * d) rule fails.
#include "attention_rows.cuh"

__global__ void all_scores(Problem p, float* s) {
  const int i = blockIdx.x * kRowsPerBlock + threadIdx.x, head = blockIdx.y;
  if (i >= p.n_q) return;
  const float* q = p.q + (static_cast<size_t>(head) * p.n_q + i) * p.d;
  float* s_row = s + (static_cast<size_t>(head) * p.n_q + i) * p.n_k;
  for (int j = 0; j < p.n_k; ++j) {
    const float* k = p.k + (static_cast<size_t>(head) * p.n_k + j) * p.d;
    float dot = 0.0f;
    for (int x = 0; x < p.d; ++x) dot += q[x] * k[x];
    s_row[j] = visible(p, i, j) ? dot * p.scale : -INFINITY;
  }
}

__global__ void softmax_times_v(Problem p, const float* s) {
  const int i = blockIdx.x * kRowsPerBlock + threadIdx.x, head = blockIdx.y;
  if (i >= p.n_q) return;
  const float* s_row = s + (static_cast<size_t>(head) * p.n_q + i) * p.n_k;
  RowState row;
  for (int j = 0; j < p.n_k; ++j)
    online_update(row, s_row[j], p.v + (static_cast<size_t>(head) * p.n_k + j) * p.d, p.d);
  const size_t out = static_cast<size_t>(head) * p.n_q + i;
  finish_row(row, p.o + out * p.d, p.lse + out, p.d);
}

void flash_fwd(const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q, int n_k,
               int d, float scale, bool causal) {
  float* s = nullptr;
  cudaMalloc(&s, sizeof(float) * bh * n_q * n_k);
  const Problem p{q, k, v, o, lse, n_q, n_k, d, scale, causal};
  all_scores<<<row_grid(bh, n_q), kRowsPerBlock>>>(p, s);
  softmax_times_v<<<row_grid(bh, n_q), kRowsPerBlock>>>(p, s);
  cudaFree(s);
}
