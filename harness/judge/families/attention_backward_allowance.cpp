// A right 16-bit kernel computes each gradient as a sum of terms t (dv_j: p_ij dout_i over queries i; dk_j:
// scale ds_ij q_i over i; dq_i: scale ds_ij k_j over keys j) and errs where it rounds, with u the unit
// roundoff:
//   - P and dS are rounded to 16 bits for the tensor cores: at most 2u |t| per term (dS may be computed
//     from the rounded P), each rounding independent of the others;
//   - D_i = dout_i . o_i is computed from o rounded to 16 bits: off by at most u E_i, E_i = sum_c
//     |dout_ic o_ic|, the same error for every term of query i;
//   - dP = dout . v and the sums run in fp32: 2^-16 A_ij per dp, A_ij = sum_c |dout_ic v_jc| (d <= 128
//     terms of relative error 2^-23), and n * 2^-22 sum |t| for a sum of n terms in any order (truncating
//     tensor cores included);
//   - the gradient is rounded once: u |g|.
// The roundings of P and dS are bounded two ways, each with a factor of 2 to spare: the worst case, all
// errors of one sign, 4u sum |t|; and, as independent errors of zero mean, Hoeffding's inequality: a sum
// exceeds 8 sqrt(sum (2u t)^2) with probability 2 exp(-32) < 3e-14, so 16u sqrt(sum t^2) holds for every
// element of every case. The smaller applies: random-sign sums of n terms grow like sqrt(n), so the worst
// case would allow far more than a right kernel errs, and let wrong kernels through, once n is large.
#include "families/attention_backward_allowance.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "families/attention_backward_reference.hpp"
#include "parallel_for.hpp"

namespace puzzle::puzzles::attention {
namespace {

// One output element's sums over its terms.
struct TermSums {
  double sum = 0;      // sum t: the exact gradient
  double abs = 0;      // sum |t|
  double squares = 0;  // sum t^2
  double linear = 0;   // the errors that add up in one direction: D's and dP's fp32 (as above)
  int64_t terms = 0;

  void add(double t, double linear_error) {
    sum += t;
    abs += std::abs(t);
    squares += t * t;
    linear += linear_error;
    ++terms;
  }
  double allowance(double unit) const {
    const double rounding = std::min(4 * unit * abs, 16 * unit * std::sqrt(squares));
    return unit * std::abs(sum) + rounding + 2 * linear + static_cast<double>(terms) * 0x1p-22 * abs;
  }
};

double abs_dot(const float* a, const float* b, int64_t d) {
  double sum = 0;
  for (int64_t c = 0; c < d; ++c) sum += std::abs(static_cast<double>(a[c]) * b[c]);
  return sum;
}

}  // namespace

void backward_16bit_allowance(const Shape& shape, const float* q, const float* k, const float* v,
                              const float* o, const float* dout, double unit, double* dq, double* dk,
                              double* dv) {
  const int64_t d = shape.d;
  parallel_for(shape.bh, [&](int64_t h) {
    const int64_t key0 = h * shape.n_k * d;
    std::vector<TermSums> dq_sums(d), dk_sums(shape.n_k * d), dv_sums(shape.n_k * d);
    for (int64_t i = 0; i < shape.n_q; ++i) {
      const int64_t row = (h * shape.n_q + i) * d;
      const std::vector<double> p = row_probabilities(shape, q, k, h, i);
      std::vector<double> dp(p.size());
      double d_i = 0;
      for (size_t j = 0; j < p.size(); ++j) {
        dp[j] = dot(dout + row, v + key0 + static_cast<int64_t>(j) * d, d);
        d_i += p[j] * dp[j];
      }
      const double d_error = unit * abs_dot(dout + row, o + row, d);
      std::fill(dq_sums.begin(), dq_sums.end(), TermSums{});
      for (size_t j = 0; j < p.size(); ++j) {
        const int64_t key = key0 + static_cast<int64_t>(j) * d;
        const double ds = shape.scale * p[j] * (dp[j] - d_i);
        const double ds_error = shape.scale * p[j] * (d_error + 0x1p-16 * abs_dot(dout + row, v + key, d));
        for (int64_t c = 0; c < d; ++c) {
          dq_sums[c].add(ds * k[key + c], ds_error * std::abs(k[key + c]));
          dk_sums[j * d + c].add(ds * q[row + c], ds_error * std::abs(q[row + c]));
          dv_sums[j * d + c].add(p[j] * dout[row + c], 0);
        }
      }
      for (int64_t c = 0; c < d; ++c) dq[row + c] = dq_sums[c].allowance(unit);
    }
    for (int64_t e = 0; e < shape.n_k * d; ++e) {
      dk[key0 + e] = dk_sums[e].allowance(unit);
      dv[key0 + e] = dv_sums[e].allowance(unit);
    }
  });
}

}  // namespace puzzle::puzzles::attention
