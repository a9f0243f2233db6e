// The judge of the tensor-core products (puzzles 7, 8): right float sums in any order pass, with the
// per-element allowance k 2^-22 ||a_i|| ||b_j||; sums that lose precision a right kernel never loses fail.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "case_data.hpp"
#include "judge_trial.hpp"
#include "registry.hpp"
#include "verdict.hpp"

using namespace puzzle;

namespace {

// The long-k case of puzzle 7, with c computed by `sum` from a row of a and a row of b.
CaseResult judge_with(const std::string& name,
                      const std::function<float(const float*, const float*, int64_t)>& sum) {
  const PuzzleSpec& p = *find_puzzle(7);
  const TestCase& test = trial::case_named(p, name);
  const Buffers in = draw_inputs(p, test, 9);
  const int64_t m = test.params.at("m"), n = test.params.at("n"), k = test.params.at("k");
  std::vector<float> file = trial::Trial::guard();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) file.push_back(sum(&in[0][i * k], &in[1][j * k], k));
  }
  const std::vector<float> after = trial::Trial::guard();
  file.insert(file.end(), after.begin(), after.end());
  return judge_case(p, test, 9, {file}, trial::launched());
}

float forward(const float* a, const float* b, int64_t k) {
  float c = 0;
  for (int64_t x = 0; x < k; ++x) c = std::fma(a[x], b[x], c);
  return c;
}

}  // namespace

TEST_CASE("matmul judge: right float sums pass in any order, even over k = 1024") {
  CHECK(judge_with("8x24x1024", forward).status == CaseStatus::passed);
  // Largest products first, then the rest: about the worst order for float rounding.
  CHECK(judge_with("8x24x1024", [](const float* a, const float* b, int64_t k) {
          std::vector<float> products(k);
          for (int64_t x = 0; x < k; ++x) products[x] = a[x] * b[x];
          std::sort(products.begin(), products.end(),
                    [](float l, float r) { return std::abs(l) > std::abs(r); });
          float c = 0;
          for (const float v : products) c += v;
          return c;
        }).status == CaseStatus::passed);
  // Sums truncated toward zero after every addition, as a tensor core truncates.
  CHECK(judge_with("8x24x1024", [](const float* a, const float* b, int64_t k) {
          float c = 0;
          for (int64_t x = 0; x < k; ++x) {
            const double exact = static_cast<double>(c) + static_cast<double>(a[x]) * b[x];
            float rounded = static_cast<float>(exact);
            if (std::abs(static_cast<double>(rounded)) > std::abs(exact))
              rounded = std::nextafter(rounded, 0.0f);
            c = rounded;
          }
          return c;
        }).status == CaseStatus::passed);
}

TEST_CASE("matmul judge: a sum kept in bf16, or one product of the 1024 missing, fails") {
  const CaseResult bf16 = judge_with("8x24x1024", [](const float* a, const float* b, int64_t k) {
    float c = 0;
    for (int64_t x = 0; x < k; ++x) c = round_to(Dtype::bf16, c + a[x] * b[x]);
    return c;
  });
  CHECK(bf16.status == CaseStatus::failed);
  const CaseResult one_short =
      judge_with("8x24x1024", [](const float* a, const float* b, int64_t k) { return forward(a, b, k - 1); });
  CHECK(one_short.status == CaseStatus::failed);
}

TEST_CASE("matmul judge: c rounded to bf16 is named") {
  const CaseResult r = judge_with("64x64x64", [](const float* a, const float* b, int64_t k) {
    return round_to(Dtype::bf16, forward(a, b, k));
  });
  CHECK(r.status == CaseStatus::failed);
  CHECK(trial::has(r, "sixteen_bit_rounding"));
}
