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
// memory on a 16-core host. Both passes work on tiles of rows with double_products.hpp's products.

#include "families/attention_backward_reference.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dot.hpp"
#include "double_products.hpp"
#include "parallel_for.hpp"

namespace puzzle::puzzles::attention {
namespace {

// Keys a task of the second pass owns: their dk and dv rows (32 KB at d = 64) stay in cache while the terms
// of every query row are added to them, kQueryBlock rows at a time.
constexpr int64_t kKeyGroup = 64, kQueryBlock = 64;

// What the second pass needs of query row i: p_ij = exp(s_ij - shift) / divisor (the softmax: the row's max
// and its sum of exponentials; a model's given lse: that lse and 1, a division that changes nothing), and
// D_i. The second pass recomputes each p_ij and ds_ij with the same operations as the first: the same bits.
struct RowTerms {
  double shift = 0, divisor = 1, delta = 0;
};

double probability(double s, const RowTerms& t) {
  return std::exp(s - t.shift) / t.divisor;
}

double score_gradient(double p, double dp, const RowTerms& t, const Shape& shape,
                      const BackwardModel& model) {
  return p * (dp - t.delta) * (model.scale_dq_dk ? shape.scale : 1.0);
}

// The shift and divisor of a row's `seen` scores (the softmax: its max and its sum of exponentials; or the
// model's lse), and its p in place.
RowTerms probabilities_in_place(double* p, int64_t seen, const BackwardModel& model, float given_lse) {
  RowTerms terms;
  if (model.lse) {
    terms.shift = model.lse_factor == 0 ? 0 : model.lse_factor * given_lse;  // never 0 * -inf
  } else {
    terms.shift = *std::max_element(p, p + seen);
  }
  double sum = 0;
  for (int64_t j = 0; j < seen; ++j) sum += p[j] = std::exp(p[j] - terms.shift);
  if (!model.lse) terms.divisor = sum;
  for (int64_t j = 0; j < seen; ++j) p[j] /= terms.divisor;  // as probability() computes it
  return terms;
}

// The first pass over one group of query rows: dq, and each row's terms for the second pass. P is the
// model's: recomputed from the lse it is given (infinite where lse = -inf and the model's mask lets the row
// see keys: a kernel's exp(s + inf)), or the softmax.
void query_rows(const Shape& shape, const float* q, const float* k, const float* v, const float* dout,
                const BackwardModel& model, int64_t head, int64_t first, double* dq, RowTerms* terms) {
  const int64_t d = shape.d, n_k = shape.n_k, rows = std::min(kRowGroup, shape.n_q - first);
  const int64_t row0 = head * shape.n_q + first;      // the group's first row of q, dout, dq and lse
  std::vector<double> p(rows * n_k), ds(rows * n_k);  // row r at r * n_k; ds holds dp first
  scores_of_rows(shape, q, k, head, first, rows, p.data());
  int64_t seen[kRowGroup], widest = 0;  // row r sees keys 0 .. seen[r] - 1
  for (int64_t r = 0; r < rows; ++r) {
    seen[r] = shape.visible_keys(first + r);
    widest = std::max(widest, seen[r]);
  }
  dot_products(dout + row0 * d, rows, v + head * n_k * d, widest, d, ds.data(), n_k);
  for (int64_t r = 0; r < rows; ++r) {
    double* p_row = p.data() + r * n_k;
    double* ds_row = ds.data() + r * n_k;
    if (seen[r] > 0)
      terms[r] = probabilities_in_place(p_row, seen[r], model, model.lse ? model.lse[row0 + r] : 0);
    double d_i = 0;
    for (int64_t j = 0; j < seen[r]; ++j) d_i += p_row[j] * ds_row[j];
    if (model.o) d_i = dot(dout + (row0 + r) * d, model.o + (row0 + r) * d, d);
    terms[r].delta = model.subtract_delta ? d_i : 0;
    for (int64_t j = 0; j < seen[r]; ++j)
      ds_row[j] = score_gradient(p_row[j], ds_row[j], terms[r], shape, model);
    std::fill(ds_row + seen[r], ds_row + widest, 0.0);  // keys the row does not see add nothing to dq
  }
  add_products(dq + row0 * d, rows, ds.data(), n_k, k + head * n_k * d, widest, d);
}

// The second pass over one group of keys: dk and dv, each key's terms added over the query rows in order,
// from tiles of S and dP transposed (key by query).
void key_rows(const Shape& shape, const float* q, const float* k, const float* v, const float* dout,
              const BackwardModel& model, int64_t head, int64_t first_key, const RowTerms* terms, double* dk,
              double* dv) {
  const int64_t d = shape.d, keys = std::min(kKeyGroup, shape.n_k - first_key);
  const int64_t key0 = head * shape.n_k + first_key;  // the group's first row of k, v, dk and dv
  std::fill_n(dk + key0 * d, keys * d, 0.0);
  std::fill_n(dv + key0 * d, keys * d, 0.0);
  std::vector<double> p(keys * kQueryBlock), ds(keys * kQueryBlock);  // key r's terms at r * kQueryBlock
  for (int64_t first = 0; first < shape.n_q; first += kQueryBlock) {
    const int64_t queries = std::min(kQueryBlock, shape.n_q - first);
    int64_t seen[kQueryBlock], widest = 0;  // query i sees this group's keys 0 .. seen[i] - 1
    for (int64_t i = 0; i < queries; ++i) {
      seen[i] = std::clamp<int64_t>(shape.visible_keys(first + i) - first_key, 0, keys);
      widest = std::max(widest, seen[i]);
    }
    if (widest == 0) continue;  // no query of the block sees these keys
    const int64_t row0 = head * shape.n_q + first;
    dot_products(k + key0 * d, keys, q + row0 * d, queries, d, p.data(), kQueryBlock);
    dot_products(v + key0 * d, keys, dout + row0 * d, queries, d, ds.data(), kQueryBlock);
    for (int64_t i = 0; i < queries; ++i) {
      const RowTerms& t = terms[row0 + i];
      for (int64_t key = 0; key < keys; ++key) {
        double& p_ij = p[key * kQueryBlock + i];
        double& ds_ij = ds[key * kQueryBlock + i];
        if (key < seen[i]) {
          p_ij = probability(shape.scale * p_ij, t);
          ds_ij = score_gradient(p_ij, ds_ij, t, shape, model);
        } else {
          p_ij = ds_ij = 0;
        }
      }
    }
    add_products(dv + key0 * d, keys, p.data(), kQueryBlock, dout + row0 * d, queries, d);
    add_products(dk + key0 * d, keys, ds.data(), kQueryBlock, q + row0 * d, queries, d);
  }
}

}  // namespace

std::vector<double> row_probabilities(const Shape& shape, const float* q, const float* k, int64_t head,
                                      int64_t query) {
  std::vector<double> p(shape.n_k);
  scores(shape, q, k, head, query, p.data());
  p.resize(shape.visible_keys(query));  // the keys a row sees are a prefix; the rest are -inf
  if (!p.empty()) probabilities_in_place(p.data(), static_cast<int64_t>(p.size()), {}, 0);
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
