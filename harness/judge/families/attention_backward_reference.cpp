// The attention backward pass in double: P's row from q and k, then
//     dv_j += p_j dout_i,   dp_j = dout_i . v_j,   ds_j = p_j (dp_j - D_i),   D_i = sum_j p_j dp_j,
//     dq_i = scale sum_j ds_j k_j,   dk_j += scale ds_j q_i.
// D_i is computed as sum_j p_j dp_j, its definition; kernels use the equal dout_i . o_i (docs page 6).
// A BackwardModel replaces a step with what a (wrong) kernel does, for the diagnoses.
//
// Two passes, as FlashAttention-2's kernels do it: query rows first (P, D and dq, each row on its own), then
// keys (dk and dv, each key on its own, its terms recomputed from what the first pass kept of each row).
// One pass over the rows would add every row's terms into all of dk and dv: per-task partials of the whole of
// dk and dv (2 MB a head at 2048 keys and d = 64), streamed through once per group of rows, made it bound by
// memory on a 16-core host: 1.9 s for 8 heads of 2048 rows on an H100's, 1.05-1.4 s in two passes, which do
// 7 products of d terms per (query, key) pair instead of 5.
#include "families/attention_backward_reference.hpp"

#include <algorithm>
#include <cmath>

#include "dot.hpp"
#include "parallel_for.hpp"

namespace puzzle::puzzles::attention {
namespace {

// Keys a task of the second pass owns: their dk and dv rows (64 KB at d = 64) stay in cache while every
// query row's terms are added to them.
constexpr int64_t kKeyGroup = 64;

// row += factor * x, over d elements.
void add_scaled(double* row, double factor, const float* x, int64_t d) {
  for (int64_t c = 0; c < d; ++c) row[c] += factor * x[c];
}

// What the second pass needs of query row i: p_ij = exp(s_ij - shift) / divisor (the softmax: the row's max
// and its sum of exponentials; a model's given lse: that lse and 1, a division that changes nothing), and
// D_i. The second pass recomputes each p_ij and ds_ij with the same operations as the first: the same bits.
struct RowTerms {
  double shift = 0, divisor = 1, delta = 0;
};

// The shift, exponentials and divisor of a row's scores (the softmax, or the model's lse), p in place.
void probabilities_in_place(std::vector<double>& p, RowTerms& terms) {
  double sum = 0;
  for (double& x : p) sum += x = std::exp(x - terms.shift);
  if (terms.divisor == 0) terms.divisor = sum;
  for (double& x : p) x /= terms.divisor;
}

// P's rows first .. first + rows - 1 (at most kRowGroup) as the model recomputes them from the lse it is
// given (infinite where lse = -inf and the model's mask lets the row see keys: a kernel's exp(s + inf)).
void model_probabilities(const Shape& shape, const float* q, const float* k, int64_t head, int64_t first,
                         int64_t rows, const BackwardModel& model, std::vector<double>* p, RowTerms* terms) {
  double* s[kRowGroup];
  for (int64_t r = 0; r < rows; ++r) {
    p[r].resize(shape.n_k);
    s[r] = p[r].data();
  }
  scores_of_rows(shape, q, k, head, first, rows, s);
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t query = first + r;
    p[r].resize(shape.visible_keys(query));  // the keys a row sees are a prefix; the rest are -inf
    if (p[r].empty()) continue;
    if (model.lse) {
      const float given = model.lse[head * shape.n_q + query];
      terms[r] = {.shift = model.lse_factor == 0 ? 0 : model.lse_factor * given};  // never 0 * -inf
    } else {
      terms[r] = {.shift = *std::max_element(p[r].begin(), p[r].end()), .divisor = 0};  // the sum, below
    }
    probabilities_in_place(p[r], terms[r]);
  }
}

// The first pass over one group of query rows: dq, and each row's terms for the second pass.
void query_rows(const Shape& shape, const float* q, const float* k, const float* v, const float* dout,
                const BackwardModel& model, int64_t head, int64_t first, double* dq, RowTerms* terms) {
  const int64_t d = shape.d, rows = std::min(kRowGroup, shape.n_q - first);
  const int64_t key0 = head * shape.n_k * d;  // head h's first element of k and v
  const auto row_of = [&](int64_t r) { return (head * shape.n_q + first + r) * d; };
  std::vector<double> p[kRowGroup], ds[kRowGroup];
  model_probabilities(shape, q, k, head, first, rows, model, p, terms);
  size_t widest = 0;  // the most keys a row of the group sees
  for (int64_t r = 0; r < rows; ++r) {
    ds[r].resize(p[r].size());
    widest = std::max(widest, p[r].size());
  }
  for (size_t j = 0; j < widest; ++j) {  // dp first, in ds's place; each row of v read once for the group
    const float* v_row = v + key0 + static_cast<int64_t>(j) * d;
    for (int64_t r = 0; r < rows; ++r) {
      if (j < p[r].size()) ds[r][j] = dot(dout + row_of(r), v_row, d);
    }
  }
  for (int64_t r = 0; r < rows; ++r) {
    const std::vector<double>& dp = ds[r];
    double d_i = 0;
    for (size_t j = 0; j < p[r].size(); ++j) d_i += p[r][j] * dp[j];
    if (model.o) d_i = dot(dout + row_of(r), model.o + row_of(r), d);
    if (!model.subtract_delta) d_i = 0;
    terms[r].delta = d_i;
    for (size_t j = 0; j < p[r].size(); ++j)
      ds[r][j] = p[r][j] * (dp[j] - d_i) * (model.scale_dq_dk ? shape.scale : 1.0);
  }
  for (size_t j = 0; j < widest; ++j) {
    const float* k_row = k + key0 + static_cast<int64_t>(j) * d;
    for (int64_t r = 0; r < rows; ++r) {
      if (j < p[r].size()) add_scaled(dq + row_of(r), ds[r][j], k_row, d);
    }
  }
}

// The second pass over one group of keys: dk and dv, each key's terms added over the query rows in order.
void key_rows(const Shape& shape, const float* q, const float* k, const float* v, const float* dout,
              const BackwardModel& model, int64_t head, int64_t first_key, const RowTerms* terms, double* dk,
              double* dv) {
  const int64_t d = shape.d, keys = std::min(kKeyGroup, shape.n_k - first_key);
  double* dk_rows = dk + (head * shape.n_k + first_key) * d;
  double* dv_rows = dv + (head * shape.n_k + first_key) * d;
  std::fill_n(dk_rows, keys * d, 0.0);
  std::fill_n(dv_rows, keys * d, 0.0);
  for (int64_t i = 0; i < shape.n_q; ++i) {
    const int64_t seen = std::min(shape.visible_keys(i) - first_key, keys);  // of this group's keys
    const int64_t row = (head * shape.n_q + i) * d;
    const RowTerms& t = terms[head * shape.n_q + i];
    for (int64_t key = 0; key < seen; ++key) {
      const int64_t at = (head * shape.n_k + first_key + key) * d;
      const double p = std::exp(shape.scale * dot(q + row, k + at, d) - t.shift) / t.divisor;
      const double ds = p * (dot(dout + row, v + at, d) - t.delta) * (model.scale_dq_dk ? shape.scale : 1.0);
      add_scaled(dk_rows + key * d, ds, q + row, d);
      add_scaled(dv_rows + key * d, p, dout + row, d);
    }
  }
}

}  // namespace

std::vector<double> row_probabilities(const Shape& shape, const float* q, const float* k, int64_t head,
                                      int64_t query) {
  std::vector<double> p(shape.n_k);
  scores(shape, q, k, head, query, p.data());
  p.resize(shape.visible_keys(query));  // the keys a row sees are a prefix; the rest are -inf
  if (p.empty()) return p;
  RowTerms terms{.shift = *std::max_element(p.begin(), p.end()), .divisor = 0};
  probabilities_in_place(p, terms);
  return p;
}

void backward(const Shape& shape, const float* q, const float* k, const float* v, const float* dout,
              double* dq, double* dk, double* dv, const BackwardModel& model) {
  std::vector<RowTerms> terms(shape.bh * shape.n_q);
  std::fill_n(dq, shape.bh * shape.n_q * shape.d, 0.0);
  const int64_t row_groups = (shape.n_q + kRowGroup - 1) / kRowGroup;
  parallel_for(shape.bh * row_groups, [&](int64_t task) {
    const int64_t head = task / row_groups, first = task % row_groups * kRowGroup;
    query_rows(shape, q, k, v, dout, model, head, first, dq, terms.data() + head * shape.n_q + first);
  });
  const int64_t key_groups = (shape.n_k + kKeyGroup - 1) / kKeyGroup;
  parallel_for(shape.bh * key_groups, [&](int64_t task) {
    const int64_t head = task / key_groups, first_key = task % key_groups * kKeyGroup;
    key_rows(shape, q, k, v, dout, model, head, first_key, terms.data(), dk, dv);
  });
}

}  // namespace puzzle::puzzles::attention
