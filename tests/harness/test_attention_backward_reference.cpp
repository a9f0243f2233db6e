// Puzzle 6's reference against central finite differences of an independent float64 forward pass, and
// the identity the kernels rely on: rowsum(dO * O) == rowsum(P * dP).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "families/attention_backward_reference.hpp"

using namespace puzzle::puzzles::attention;

namespace {

Shape shape(int64_t bh, int64_t n_q, int64_t n_k, int64_t d, bool causal, double scale) {
  return {.bh = bh, .n_q = n_q, .n_k = n_k, .d = d, .causal = causal, .scale = scale, .diagonal = n_k - n_q};
}

struct Inputs {
  std::vector<float> q, k, v, dout;
};

Inputs random_inputs(const Shape& s, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.5f, 1.5f);
  const auto draw = [&](int64_t n) {
    std::vector<float> x(n);
    for (float& e : x) e = uniform(rng);
    return x;
  };
  const int64_t queries = s.bh * s.n_q * s.d, keys = s.bh * s.n_k * s.d;
  Inputs in{draw(queries), draw(keys), draw(keys), {}};
  in.dout = draw(queries);
  return in;
}

// L = sum(dout * o), o = softmax(scale q k^T, masked) v: written as plainly as possible, with the causal
// mask as its own test (j - i <= n_k - n_q) rather than visible_keys().
double loss(const Shape& s, const std::vector<double>& q, const std::vector<double>& k,
            const std::vector<double>& v, const std::vector<float>& dout) {
  double total = 0;
  for (int64_t h = 0; h < s.bh; ++h) {
    for (int64_t i = 0; i < s.n_q; ++i) {
      std::vector<double> score;
      for (int64_t j = 0; j < s.n_k && !(s.causal && j - i > s.n_k - s.n_q); ++j) {
        double dot = 0;
        for (int64_t c = 0; c < s.d; ++c) dot += q[(h * s.n_q + i) * s.d + c] * k[(h * s.n_k + j) * s.d + c];
        score.push_back(s.scale * dot);
      }
      if (score.empty()) continue;  // o = 0
      const double max = *std::max_element(score.begin(), score.end());
      double sum = 0;
      for (double x : score) sum += std::exp(x - max);
      for (int64_t c = 0; c < s.d; ++c) {
        double o = 0;
        for (size_t j = 0; j < score.size(); ++j)
          o += std::exp(score[j] - max) / sum * v[(h * s.n_k + static_cast<int64_t>(j)) * s.d + c];
        total += dout[(h * s.n_q + i) * s.d + c] * o;
      }
    }
  }
  return total;
}

// dL/dx for every element of x (one of q, k, v), by central differences.
std::vector<double> numeric_gradient(const Shape& s, const Inputs& in, int which) {
  std::vector<double> x[3] = {
      {in.q.begin(), in.q.end()}, {in.k.begin(), in.k.end()}, {in.v.begin(), in.v.end()}};
  constexpr double h = 1e-5;
  std::vector<double> grad(x[which].size());
  for (size_t e = 0; e < grad.size(); ++e) {
    const double saved = x[which][e];
    x[which][e] = saved + h;
    const double up = loss(s, x[0], x[1], x[2], in.dout);
    x[which][e] = saved - h;
    const double down = loss(s, x[0], x[1], x[2], in.dout);
    x[which][e] = saved;
    grad[e] = (up - down) / (2 * h);
  }
  return grad;
}

void check_against_finite_differences(const Shape& s) {
  const Inputs in = random_inputs(s, 7);
  std::vector<double> dq(in.q.size()), dk(in.k.size()), dv(in.v.size());
  backward(s, in.q.data(), in.k.data(), in.v.data(), in.dout.data(), dq.data(), dk.data(), dv.data());
  const std::vector<double>* exact[3] = {&dq, &dk, &dv};
  for (int which = 0; which < 3; ++which) {
    CAPTURE(which);
    const std::vector<double> numeric = numeric_gradient(s, in, which);
    for (size_t e = 0; e < numeric.size(); ++e) {
      CAPTURE(e);
      CHECK((*exact[which])[e] == doctest::Approx(numeric[e]).epsilon(1e-6).scale(1.0));
    }
  }
}

}  // namespace

TEST_CASE("attention_backward matches finite differences of the forward pass") {
  SUBCASE("full attention, n_q < n_k, a scale other than 1/sqrt(d)") {
    check_against_finite_differences(shape(2, 3, 5, 4, false, 0.7));
  }
  SUBCASE("causal, n_q < n_k") {
    check_against_finite_differences(shape(2, 3, 5, 4, true, 0.5));
  }
  SUBCASE("causal, n_q > n_k: the first rows see no key") {
    check_against_finite_differences(shape(1, 6, 3, 2, true, 1.3));
  }
}

TEST_CASE("rows that see no key have zero gradient and add nothing to dk and dv") {
  const Shape s = shape(1, 4, 2, 3, true, 0.6);
  Inputs in = random_inputs(s, 11);
  std::vector<double> dq(in.q.size()), dk(in.k.size()), dv(in.v.size());
  backward(s, in.q.data(), in.k.data(), in.v.data(), in.dout.data(), dq.data(), dk.data(), dv.data());
  for (int64_t e = 0; e < 2 * s.d; ++e) CHECK(dq[e] == 0.0);  // queries 0 and 1 see no key

  // Changing what the blind rows' dout holds changes nothing.
  for (int64_t e = 0; e < 2 * s.d; ++e) in.dout[e] = 100.0f;
  std::vector<double> dk2(dk.size()), dv2(dv.size());
  backward(s, in.q.data(), in.k.data(), in.v.data(), in.dout.data(), dq.data(), dk2.data(), dv2.data());
  CHECK(dk2 == dk);
  CHECK(dv2 == dv);
}

TEST_CASE("rowsum(dO * O) equals rowsum(P * dP)") {
  const Shape s = shape(2, 7, 9, 5, true, 0.45);
  const Inputs in = random_inputs(s, 3);
  for (int64_t h = 0; h < s.bh; ++h) {
    for (int64_t i = 0; i < s.n_q; ++i) {
      const std::vector<double> p = row_probabilities(s, in.q.data(), in.k.data(), h, i);
      const float* dout = &in.dout[(h * s.n_q + i) * s.d];
      double via_o = 0, via_dp = 0;
      for (int64_t c = 0; c < s.d; ++c) {
        double o = 0;
        for (size_t j = 0; j < p.size(); ++j)
          o += p[j] * in.v[(h * s.n_k + static_cast<int64_t>(j)) * s.d + c];
        via_o += dout[c] * o;
      }
      for (size_t j = 0; j < p.size(); ++j) {
        double dp = 0;
        for (int64_t c = 0; c < s.d; ++c)
          dp += static_cast<double>(dout[c]) * in.v[(h * s.n_k + static_cast<int64_t>(j)) * s.d + c];
        via_dp += p[j] * dp;
      }
      CHECK(via_o == doctest::Approx(via_dp).epsilon(1e-12));
    }
  }
}
