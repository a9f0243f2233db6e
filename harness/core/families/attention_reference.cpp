// The inputs of the attention puzzles and the double-precision forward reference.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "dot.hpp"
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

void scores(const Shape& shape, const float* q, const float* k, int64_t head, int64_t query, double* s) {
  const float* q_row = q + (head * shape.n_q + query) * shape.d;
  for (int64_t j = 0; j < shape.n_k; ++j) {
    if (!shape.sees(query, j)) {
      s[j] = -std::numeric_limits<double>::infinity();
      continue;
    }
    const float* k_row = k + (head * shape.n_k + j) * shape.d;
    s[j] = shape.scale * dot(q_row, k_row, shape.d);
  }
}

void forward(const Shape& shape, const float* q, const float* k, const float* v, double* o, double* lse) {
  parallel_for(shape.bh * shape.n_q, [&](int64_t row) {  // row = head * n_q + i: rows are independent
    const int64_t head = row / shape.n_q, i = row % shape.n_q;
    double* o_row = o + row * shape.d;
    std::fill_n(o_row, shape.d, 0.0);
    const int64_t seen = shape.visible_keys(i);  // a causal row sees keys 0 .. seen - 1
    if (seen == 0) {
      lse[row] = -std::numeric_limits<double>::infinity();
      return;
    }
    std::vector<double> s(shape.n_k);
    scores(shape, q, k, head, i, s.data());
    const double m = *std::max_element(s.begin(), s.begin() + seen);
    double l = 0;
    for (int64_t j = 0; j < seen; ++j) {
      const double p = std::exp(s[j] - m);
      l += p;
      const float* v_row = v + (head * shape.n_k + j) * shape.d;
      for (int64_t c = 0; c < shape.d; ++c) o_row[c] += p * v_row[c];
    }
    for (int64_t c = 0; c < shape.d; ++c) o_row[c] /= l;
    lse[row] = m + std::log(l);
  });
}

}  // namespace puzzle::puzzles::attention
