// The judge of the tensor-core products (puzzles 7, 8): right float sums in any order pass, with the
// per-element allowance k 2^-22 ||a_i|| ||b_j||; sums that lose precision a right kernel never loses fail.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
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

namespace {

// Puzzle 7's case `name` computed as an mma given a's four fragment registers in `order` (and b's two
// swapped when `b_swapped`): c is then A' B^T, a's 8 x 8 quadrants of every 16 x 16 slice moved.
CaseResult judge_with_fragments(const std::string& name, std::array<int, 4> order, bool b_swapped) {
  const PuzzleSpec& p = *find_puzzle(7);
  const TestCase& test = trial::case_named(p, name);
  const Buffers in = draw_inputs(p, test, 9);
  const int64_t m = test.params.at("m"), n = test.params.at("n"), k = test.params.at("k");
  constexpr int kRow[4] = {0, 8, 0, 8}, kK[4] = {0, 0, 8, 8};  // a0..a3: (rows, k) offsets of the quadrant
  std::vector<float> file = trial::Trial::guard();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float c = 0;
      for (int64_t x = 0; x < k; ++x) {
        const int from = order[(i % 16 >= 8) + 2 * (x % 16 >= 8)];
        const int64_t row = i / 16 * 16 + kRow[from] + i % 8, ax = x / 16 * 16 + kK[from] + x % 8;
        const float a = row < m ? in[0][row * k + ax] : 0.0f;
        c = std::fma(a, in[1][j * k + (b_swapped ? x ^ 8 : x)], c);
      }
      file.push_back(c);
    }
  }
  const std::vector<float> after = trial::Trial::guard();
  file.insert(file.end(), after.begin(), after.end());
  return judge_case(p, test, 9, {file}, trial::launched());
}

}  // namespace

TEST_CASE("matmul judge: a's or b's fragment registers handed to the mma out of order are named") {
  const CaseResult a_swapped = judge_with_fragments("16x8x16", {0, 2, 1, 3}, false);
  CHECK(a_swapped.status == CaseStatus::failed);
  CHECK(trial::message_of(a_swapped, "a_fragment_order").find("got a0, a2, a1, a3") != std::string::npos);
  CHECK(trial::has(judge_with_fragments("100x70x48", {1, 0, 3, 2}, false), "a_fragment_order"));
  const CaseResult b_swapped = judge_with_fragments("64x64x64", {0, 1, 2, 3}, true);
  CHECK(trial::has(b_swapped, "k_halves_swapped"));  // the same product as a's k halves swapped
  CHECK(!trial::has(b_swapped, "a_fragment_order"));
  CHECK(judge_with_fragments("64x64x64", {0, 1, 2, 3}, false).status == CaseStatus::passed);
}

TEST_CASE("matmul judge: a fragment index is named on a single tile too") {
  // c1 and c2 of every lane swapped, the bug of tests/kernels/p07/wrong_fragment_index.cu: on the one
  // 16 x 8 tile of the first case, the case a learner's check shows first.
  const CaseResult r = judge_with("16x8x16", forward);
  CHECK(r.status == CaseStatus::passed);
  const PuzzleSpec& p = *find_puzzle(7);
  const TestCase& test = trial::case_named(p, "16x8x16");
  const Buffers in = draw_inputs(p, test, 9);
  std::vector<float> c(16 * 8);
  for (int64_t i = 0; i < 16; ++i) {
    for (int64_t j = 0; j < 8; ++j) c[i * 8 + j] = forward(&in[0][i * 16], &in[1][j * 16], 16);
  }
  std::vector<float> swapped = c;
  for (int g = 0; g < 8; ++g) {
    for (int t = 0; t < 4; ++t) std::swap(swapped[g * 8 + 2 * t + 1], swapped[(g + 8) * 8 + 2 * t]);
  }
  std::vector<float> file = trial::Trial::guard();
  file.insert(file.end(), swapped.begin(), swapped.end());
  const std::vector<float> after = trial::Trial::guard();
  file.insert(file.end(), after.begin(), after.end());
  const CaseResult wrong = judge_case(p, test, 9, {file}, trial::launched());
  CHECK(trial::message_of(wrong, "fragment_places").find("register(s) c1, c2") != std::string::npos);
}
