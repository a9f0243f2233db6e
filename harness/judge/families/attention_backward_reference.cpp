// The attention backward pass row by row, in double: P's row from q and k, then
//     dv_j += p_j dout_i,   dp_j = dout_i . v_j,   ds_j = p_j (dp_j - D_i),   D_i = sum_j p_j dp_j,
//     dq_i = scale sum_j ds_j k_j,   dk_j += scale ds_j q_i.
// D_i is computed as sum_j p_j dp_j, its definition; kernels use the equal dout_i . o_i (docs page 6).
// A BackwardModel replaces a step with what a (wrong) kernel does, for the diagnoses.
#include "families/attention_backward_reference.hpp"

#include <algorithm>
#include <cmath>

#include "parallel_for.hpp"

namespace puzzle::puzzles::attention {
namespace {

// row += factor * x, over d elements.
void add_scaled(double* row, double factor, const float* x, int64_t d) {
  for (int64_t c = 0; c < d; ++c) row[c] += factor * x[c];
}

// P's row as the model recomputes it from the lse it is given (infinite where lse = -inf and the model's
// mask lets the row see keys: a kernel's exp(s + inf)).
std::vector<double> model_probabilities(const Shape& shape, const float* q, const float* k, int64_t head,
                                        int64_t query, const BackwardModel& model) {
  if (!model.lse) return row_probabilities(shape, q, k, head, query);
  std::vector<double> p(shape.n_k);
  scores(shape, q, k, head, query, p.data());
  p.resize(shape.visible_keys(query));
  const float given = model.lse[head * shape.n_q + query];
  const double lse = model.lse_factor == 0 ? 0 : model.lse_factor * given;  // never 0 * -inf
  for (double& x : p) x = std::exp(x - lse);
  return p;
}

}  // namespace

std::vector<double> row_probabilities(const Shape& shape, const float* q, const float* k, int64_t head,
                                      int64_t query) {
  std::vector<double> p(shape.n_k);
  scores(shape, q, k, head, query, p.data());
  p.resize(shape.visible_keys(query));  // the keys a row sees are a prefix; the rest are -inf
  if (p.empty()) return p;
  const double max = *std::max_element(p.begin(), p.end());
  double sum = 0;
  for (double& x : p) sum += x = std::exp(x - max);
  for (double& x : p) x /= sum;
  return p;
}

void backward(const Shape& shape, const float* q, const float* k, const float* v, const float* dout,
              double* dq, double* dk, double* dv, const BackwardModel& model) {
  const int64_t d = shape.d;
  std::fill_n(dq, shape.bh * shape.n_q * d, 0.0);
  std::fill_n(dk, shape.bh * shape.n_k * d, 0.0);
  std::fill_n(dv, shape.bh * shape.n_k * d, 0.0);
  // Heads in parallel: within a head every query row adds into the same dk and dv rows.
  parallel_for(shape.bh, [&](int64_t h) {
    const int64_t key0 = h * shape.n_k * d;  // head h's first element of k, v, dk and dv
    std::vector<double> dp;
    for (int64_t i = 0; i < shape.n_q; ++i) {
      const int64_t row = (h * shape.n_q + i) * d;
      const std::vector<double> p = model_probabilities(shape, q, k, h, i, model);
      dp.resize(p.size());
      double d_i = 0;
      for (size_t j = 0; j < p.size(); ++j) {
        dp[j] = dot(dout + row, v + key0 + static_cast<int64_t>(j) * d, d);
        d_i += p[j] * dp[j];
      }
      if (model.o) d_i = dot(dout + row, model.o + row, d);
      if (!model.subtract_delta) d_i = 0;
      for (size_t j = 0; j < p.size(); ++j) {
        const int64_t key = key0 + static_cast<int64_t>(j) * d;
        const double ds = p[j] * (dp[j] - d_i) * (model.scale_dq_dk ? shape.scale : 1.0);
        add_scaled(dq + row, ds, k + key, d);
        add_scaled(dk + key, ds, q + row, d);
        add_scaled(dv + key, p[j], dout + row, d);
      }
    }
  });
}

}  // namespace puzzle::puzzles::attention
