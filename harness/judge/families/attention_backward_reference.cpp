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
    const int64_t last = std::min(shape.n_q, first + rows_per_chunk);
    const int64_t key0 = h * key_elements;  // head h's first element of k and v
    double* dk_part = dk_parts.data() + task * key_elements;
    double* dv_part = dv_parts.data() + task * key_elements;
    // A group of query rows at a time: each key's dk and dv rows are then updated for the whole group
    // while they are in cache, instead of the chunk's partials (1 MB each at 2048 keys and d = 64) being
    // streamed through once per query row. Every element still gets its terms in the same order (dq_i's
    // over keys j, dk_j's and dv_j's over queries i), so the sums are the same to the last bit.
    constexpr int64_t kGroup = 8;
    std::vector<double> p[kGroup], ds[kGroup];
    for (int64_t group = first; group < last; group += kGroup) {
      const int64_t rows = std::min(kGroup, last - group);
      size_t widest = 0;  // the most keys a row of the group sees
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t i = group + r, row = (h * shape.n_q + i) * d;
        p[r] = model_probabilities(shape, q, k, h, i, model);
        std::vector<double>& dp = ds[r];  // dp first, then ds in its place
        dp.resize(p[r].size());
        double d_i = 0;
        for (size_t j = 0; j < p[r].size(); ++j) {
          dp[j] = dot(dout + row, v + key0 + static_cast<int64_t>(j) * d, d);
          d_i += p[r][j] * dp[j];
        }
        if (model.o) d_i = dot(dout + row, model.o + row, d);
        if (!model.subtract_delta) d_i = 0;
        for (size_t j = 0; j < p[r].size(); ++j)
          ds[r][j] = p[r][j] * (dp[j] - d_i) * (model.scale_dq_dk ? shape.scale : 1.0);
        widest = std::max(widest, p[r].size());
      }
      for (size_t j = 0; j < widest; ++j) {
        const int64_t key = static_cast<int64_t>(j) * d;
        for (int64_t r = 0; r < rows; ++r) {
          if (j >= p[r].size()) continue;
          const int64_t row = (h * shape.n_q + group + r) * d;
          add_scaled(dq + row, ds[r][j], k + key0 + key, d);
          add_scaled(dk_part + key, ds[r][j], q + row, d);
          add_scaled(dv_part + key, p[r][j], dout + row, d);
        }
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
