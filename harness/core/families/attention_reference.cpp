// The inputs of the attention puzzles and the double-precision forward reference.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "double_products.hpp"
#include "families/attention_family.hpp"
#include "parallel_for.hpp"
#include "random_fill.hpp"

namespace puzzle::puzzles::attention {
namespace {

void fill_normal(const Rng& rng, std::vector<float>& buffer, double mean, double sigma) {
  random_fill(rng, buffer, [&](Rng& block) { return static_cast<float>(mean + sigma * block.normal()); });
}

}  // namespace

void make_qkv(int puzzle_id, const TestCase& test, uint64_t seed, Buffers& inputs) {
  // Scores have a standard deviation of ~1 at scale 1/sqrt(d) with q ~ N(0, 1). "large_logits" makes it
  // 40: every row's largest score is above 88 (exp overflows float) or its scores far apart, so only a
  // kernel that subtracts a running max stays finite. Larger still would only add rounding: a score of
  // ~100 in float is already off by ~1e-5 (see kTolerance).
  // "negative_logits": q ~ N(-6, 1), k ~ N(6, 1) put every score near -200 at d = 32, spread by ~6 between
  // keys: exp(s) underflows to 0 for all of a row, so a running max that starts at 0 instead of -inf
  // loses every row (a sum of 0, o = 0, lse = -inf) while the softmax itself is ordinary.
  double q_sigma = 1, q_mean = 0, k_mean = 0;
  if (test.input_kind == "large_logits") {
    q_sigma = 40;
  } else if (test.input_kind == "negative_logits") {
    q_mean = -6;
    k_mean = 6;
  } else if (test.input_kind != "random" && test.input_kind != kBenchInputs) {
    throw std::invalid_argument("attention: unknown input kind " + test.input_kind);
  }
  const auto stream = [&](int b) { return Rng::for_buffer(seed, puzzle_id, test.name, b); };
  fill_normal(stream(0), inputs[0], q_mean, q_sigma);
  fill_normal(stream(1), inputs[1], k_mean, 1.0);
  fill_normal(stream(2), inputs[2], 0.0, 1.0);
}

void scores_of_rows(const Shape& shape, const float* q, const float* k, int64_t head, int64_t first_query,
                    int64_t rows, double* s) {
  int64_t widest = 0;  // the keys the group's rows see (a prefix for each): no row needs the products past it
  for (int64_t r = 0; r < rows; ++r) widest = std::max(widest, shape.visible_keys(first_query + r));
  dot_products(q + (head * shape.n_q + first_query) * shape.d, rows, k + head * shape.n_k * shape.d, widest,
               shape.d, s, shape.n_k);
  for (int64_t r = 0; r < rows; ++r) {
    double* row = s + r * shape.n_k;
    const int64_t seen = shape.visible_keys(first_query + r);
    for (int64_t j = 0; j < seen; ++j) row[j] *= shape.scale;
    std::fill(row + seen, row + shape.n_k, -std::numeric_limits<double>::infinity());
  }
}

void scores(const Shape& shape, const float* q, const float* k, int64_t head, int64_t query, double* s) {
  scores_of_rows(shape, q, k, head, query, 1, s);
}

void forward(const Shape& shape, const float* q, const float* k, const float* v, double* o, double* lse) {
  const int64_t groups = (shape.n_q + kRowGroup - 1) / kRowGroup;
  parallel_for(shape.bh * groups, [&](int64_t task) {  // rows are independent
    const int64_t head = task / groups, first = task % groups * kRowGroup;
    const int64_t rows = std::min(kRowGroup, shape.n_q - first);
    std::vector<double> p(rows * shape.n_k);  // the scores, then in place exp(s - m), 0 past a row's keys
    scores_of_rows(shape, q, k, head, first, rows, p.data());
    int64_t seen[kRowGroup];  // a causal row sees keys 0 .. seen - 1
    double m[kRowGroup], l[kRowGroup];
    int64_t widest = 0;
    for (int64_t r = 0; r < rows; ++r) {
      double* row = p.data() + r * shape.n_k;
      seen[r] = shape.visible_keys(first + r);
      widest = std::max(widest, seen[r]);
      m[r] = seen[r] == 0 ? 0 : *std::max_element(row, row + seen[r]);
      l[r] = 0;
      for (int64_t j = 0; j < seen[r]; ++j) l[r] += row[j] = std::exp(row[j] - m[r]);
      std::fill(row + seen[r], row + shape.n_k, 0.0);
    }
    double* o_rows = o + (head * shape.n_q + first) * shape.d;
    std::fill_n(o_rows, rows * shape.d, 0.0);
    add_products(o_rows, rows, p.data(), shape.n_k, v + head * shape.n_k * shape.d, widest, shape.d);
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t row = head * shape.n_q + first + r;
      if (seen[r] == 0) {
        lse[row] = -std::numeric_limits<double>::infinity();
        continue;
      }
      for (int64_t c = 0; c < shape.d; ++c) o[row * shape.d + c] /= l[r];
      lse[row] = m[r] + std::log(l[r]);
    }
  });
}

}  // namespace puzzle::puzzles::attention
