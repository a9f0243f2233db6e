// Correct pieces of a flash-attention forward shared by the puzzle-5 test kernels, so that each kernel
// shows only its own bug: one thread per query row walking the keys in tiles of 16 (zero-filled past
// n_k, as a shared-memory tile would be), with the visibility rule, the online update and the final
// normalization taken as arguments.
#pragma once
#include <cuda_runtime.h>

#include <cmath>

constexpr int kMaxD = 128;
constexpr int kKeyTile = 16;
constexpr int kRowsPerBlock = 64;

struct Problem {
  const float *q, *k, *v;
  float *o, *lse;
  int n_q, n_k, d;
  float scale;
  bool causal;
};

// What one query row has seen so far: the max of its scores, l = sum of exp(s - m), O = sum of
// exp(s - m) * v_j.
struct RowState {
  float m = -INFINITY;
  float l = 0.0f;
  float acc[kMaxD] = {};
};

// Query i sees key j iff j < n_k and, causal, j <= i + n_k - n_q (aligned bottom-right).
__device__ inline bool visible(const Problem& p, int i, int j) {
  return j < p.n_k && (!p.causal || j <= i + p.n_k - p.n_q);
}

// Adds one key (score s, -inf if not visible; value row v) to the row.
__device__ inline void online_update(RowState& row, float s, const float* v, int d) {
  const float m = fmaxf(row.m, s);
  if (m == -INFINITY) return;  // nothing visible yet: exp(-inf - -inf) would be NaN
  const float rescale = expf(row.m - m), p = expf(s - m);
  row.l = row.l * rescale + p;
  for (int x = 0; x < d; ++x) row.acc[x] = row.acc[x] * rescale + p * v[x];
  row.m = m;
}

// o = O / l and lse = m + log(l); a row that saw no key gets o = 0 and lse = -inf.
__device__ inline void finish_row(const RowState& row, float* o, float* lse, int d) {
  const float inv_l = row.l > 0.0f ? 1.0f / row.l : 0.0f;
  for (int x = 0; x < d; ++x) o[x] = row.acc[x] * inv_l;
  *lse = row.l > 0.0f ? row.m + logf(row.l) : -INFINITY;
}

// Query row i of head `head` with the rules under test.
template <class Visible, class Update, class Finish>
__device__ void attention_row(const Problem& p, int head, int i, Visible is_visible, Update update,
                              Finish finish) {
  const size_t q_row = (static_cast<size_t>(head) * p.n_q + i) * p.d;
  RowState row;
  float key[kMaxD], value[kMaxD];
  for (int first = 0; first < p.n_k; first += kKeyTile) {
    for (int j = first; j < first + kKeyTile; ++j) {
      const size_t k_row = (static_cast<size_t>(head) * p.n_k + j) * p.d;
      for (int x = 0; x < p.d; ++x) {
        key[x] = j < p.n_k ? p.k[k_row + x] : 0.0f;
        value[x] = j < p.n_k ? p.v[k_row + x] : 0.0f;
      }
      float s = 0.0f;
      for (int x = 0; x < p.d; ++x) s += p.q[q_row + x] * key[x];
      update(row, is_visible(p, i, j) ? s * p.scale : -INFINITY, value, p.d);
    }
  }
  finish(row, p.o + q_row, p.lse + static_cast<size_t>(head) * p.n_q + i, p.d);
}

// The body of every test kernel: thread x of block (b, head) takes query row 64b + x of that head.
template <class Visible, class Update, class Finish>
__device__ void attention_rows(const Problem& p, Visible is_visible, Update update, Finish finish) {
  const int i = blockIdx.x * kRowsPerBlock + threadIdx.x;
  if (i < p.n_q) attention_row(p, blockIdx.y, i, is_visible, update, finish);
}

// Their launch: one thread per query row, blockIdx.y the head.
inline dim3 row_grid(int bh, int n_q) {
  return dim3((n_q + kRowsPerBlock - 1) / kRowsPerBlock, bh);
}
