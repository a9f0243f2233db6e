// The attention backward pass row by row, in double: P's row from q and k, then
//     dv_j += p_j dout_i,   dp_j = dout_i . v_j,   ds_j = p_j (dp_j - D_i),   D_i = sum_j p_j dp_j,
//     dq_i = scale sum_j ds_j k_j,   dk_j += scale ds_j q_i.
// D_i is computed as sum_j p_j dp_j, its definition; kernels use the equal dout_i . o_i (docs page 6).
// A BackwardModel replaces a step with what a (wrong) kernel does, for the diagnoses.
#include "families/attention_backward_reference.hpp"

#include <algorithm>
#include <cmath>

#include "dot.hpp"
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
  const int64_t d = shape.d, key_elements = shape.n_k * d;
  // A check's cases have 1 to 8 heads, so each head's query rows are split into chunks too, enough for
  // every core. Within a head every query row adds into the same dk and dv rows: each chunk adds into a
  // partial of its own, and the partials are summed in chunk order (the same answer on any machine).
  const int64_t chunks = std::clamp<int64_t>(32 / shape.bh, 1, std::max<int64_t>(shape.n_q, 1));
  const int64_t rows_per_chunk = (shape.n_q + chunks - 1) / chunks;
  std::vector<double> dk_parts(shape.bh * chunks * key_elements), dv_parts(dk_parts.size());
  std::fill_n(dq, shape.bh * shape.n_q * d, 0.0);
  parallel_for(shape.bh * chunks, [&](int64_t task) {
    const int64_t h = task / chunks, first = task % chunks * rows_per_chunk;
    const int64_t key0 = h * key_elements;  // head h's first element of k and v
    double* dk_part = dk_parts.data() + task * key_elements;
    double* dv_part = dv_parts.data() + task * key_elements;
    std::vector<double> dp;
    for (int64_t i = first; i < std::min(shape.n_q, first + rows_per_chunk); ++i) {
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
        const int64_t key = static_cast<int64_t>(j) * d;
        const double ds = p[j] * (dp[j] - d_i) * (model.scale_dq_dk ? shape.scale : 1.0);
        add_scaled(dq + row, ds, k + key0 + key, d);
        add_scaled(dk_part + key, ds, q + row, d);
        add_scaled(dv_part + key, p[j], dout + row, d);
      }
    }
  });
  parallel_ranges(shape.bh * key_elements, 1 << 16, [&](int64_t begin, int64_t end) {
    for (int64_t e = begin; e < end; ++e) {
      const int64_t h = e / key_elements, offset = e % key_elements;
      double dk_sum = 0, dv_sum = 0;
      for (int64_t c = 0; c < chunks; ++c) {
        dk_sum += dk_parts[(h * chunks + c) * key_elements + offset];
        dv_sum += dv_parts[(h * chunks + c) * key_elements + offset];
      }
      dk[e] = dk_sum;
      dv[e] = dv_sum;
    }
  });
}

}  // namespace puzzle::puzzles::attention
