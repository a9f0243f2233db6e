// The exact gradients of attention, in double precision: puzzle 6's reference.
//
//     o = softmax(scale * q k^T, masked) v          for each head, q [n_q, d], k and v [n_k, d]
//
// Given dout = dL/do, it writes dq, dk and dv. A query that sees no key (causal, n_q > n_k) has o = 0
// whatever q, k and v are: its dq is 0 and it adds nothing to dk or dv.
#pragma once
#include <cstdint>
#include <vector>

#include "families/attention_family.hpp"

namespace puzzle::puzzles::attention {

// What a kernel computes instead, for the diagnoses: a kernel recomputes P from the lse it is given,
// under its own mask (the Shape's diagonal), takes D from o, and can get each step wrong. The default is
// the exact gradient.
struct BackwardModel {
  const float* lse = nullptr;  // non-null: p_ij = exp(s_ij - lse_factor * lse_i), over the keys row i sees
  double lse_factor = 1;       // 0: lse not subtracted; ln 2: lse read as a base-2 logsumexp
  const float* o = nullptr;    // non-null: D_i = dout_i . o_i, else sum_j p_ij dp_ij (equal when exact)
  bool subtract_delta = true;  // false: dS = P * dP
  bool scale_dq_dk = true;     // false: dq and dk without their factor scale
};

// a . b over d elements, summed in double in index order (the reference and the allowance share it).
inline double dot(const float* a, const float* b, int64_t d) {
  double sum = 0;
  for (int64_t c = 0; c < d; ++c) sum += static_cast<double>(a[c]) * b[c];
  return sum;
}

// The softmax probabilities of one query row over the keys it sees, in double: element j for key j.
std::vector<double> row_probabilities(const Shape& shape, const float* q, const float* k, int64_t head,
                                      int64_t query);

// q, dout, dq: [bh, n_q, d]; k, v, dk, dv: [bh, n_k, d]; lse [bh, n_q]; all contiguous.
void backward(const Shape& shape, const float* q, const float* k, const float* v, const float* dout,
              double* dq, double* dk, double* dv, const BackwardModel& model = {});

}  // namespace puzzle::puzzles::attention
