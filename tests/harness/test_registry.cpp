#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "case_data.hpp"
#include "registry.hpp"

using namespace puzzle;

namespace {

const TestCase& case_named(const PuzzleSpec& p, const std::string& name) {
  const auto it =
      std::find_if(p.cases.begin(), p.cases.end(), [&](const TestCase& t) { return t.name == name; });
  REQUIRE(it != p.cases.end());
  return *it;
}

}  // namespace

TEST_CASE("find_puzzle by number, padded number and slug") {
  const PuzzleSpec* p = find_puzzle(1);
  REQUIRE(p != nullptr);
  CHECK(find_puzzle("1") == p);
  CHECK(find_puzzle("01") == p);
  CHECK(find_puzzle("row_softmax") == p);
  CHECK(find_puzzle("2") == nullptr);
  CHECK(find_puzzle("") == nullptr);
  CHECK(find_puzzle("softmax") == nullptr);
  CHECK(find_puzzle(0) == nullptr);
}

TEST_CASE("row_softmax is described completely") {
  const PuzzleSpec& p = *find_puzzle(1);
  CHECK(p.slug == "row_softmax");
  CHECK(p.file == "01_row_softmax.cu");
  CHECK(p.docs == "docs/01_row_softmax.md");
  CHECK(p.signature == "void row_softmax(const float* x, float* y, int rows, int cols)");
  REQUIRE(p.inputs.size() == 1);
  REQUIRE(p.outputs.size() == 1);
  CHECK(p.inputs[0].name == "x");
  CHECK(p.outputs[0].name == "y");
  const Params params{{"rows", 3}, {"cols", 1000}};
  CHECK(p.outputs[0].elements(params) == 3000);
  CHECK(p.outputs[0].locate(params, 1017) == "row 1, col 17");
  CHECK(p.min_bytes(params) == 2.0 * 3000 * 4);
  for (const std::string& hint : p.hints) CHECK(!hint.empty());

  std::set<std::string> names;
  for (const TestCase& t : p.cases) {
    CHECK(names.insert(t.name).second);
    CHECK(t.params.at("rows") >= 1);
    CHECK(t.params.at("cols") >= 1);
    CHECK(t.params.at("cols") <= 16384);
    CHECK(!t.about.empty());
    if (t.perf) CHECK(!t.sim);
  }
  for (const char* name :
       {"1x1", "5x1025", "4096x4096", "huge_logits", "constant_rows", "neg_inf", "8192x8192", "16384x4096"}) {
    CHECK(names.count(name) == 1);
  }
  CHECK(case_named(p, "8192x8192").perf);
}

TEST_CASE("a case's inputs depend on the seed and the case alone") {
  const PuzzleSpec& p = *find_puzzle(1);
  const TestCase& a = case_named(p, "127x129");
  const Buffers first = draw_inputs(p, a, 42);
  (void)draw_inputs(p, case_named(p, "33x31"), 42);  // drawing another case changes nothing
  CHECK(draw_inputs(p, a, 42) == first);
  CHECK(draw_inputs(p, a, 43) != first);
  REQUIRE(first[0].size() == 127u * 129u);
}

TEST_CASE("random rows have outliers well above the rest, and every answer is checkable") {
  const PuzzleSpec& p = *find_puzzle(1);
  const TestCase& t = case_named(p, "64x16384");
  const Buffers in = draw_inputs(p, t, 1);
  const RefBuffers out = expected_outputs(p, t, in);
  const int64_t cols = 16384;
  for (int64_t r = 0; r < 64; ++r) {
    const float* x = &in[0][r * cols];
    const double* y = &out[0][r * cols];
    CHECK(*std::max_element(x, x + cols) > std::log(double(cols)));
    CHECK(*std::max_element(y, y + cols) > 10.0 / cols);  // far from uniform
    // Nearly every answer is well above atol, so it is really checked.
    const auto tiny = std::count_if(y, y + cols, [&](double v) { return v < 10 * p.tolerance.atol; });
    CHECK(tiny < cols / 1000);
  }
}

TEST_CASE("named cases have what their names promise") {
  const PuzzleSpec& p = *find_puzzle(1);
  const uint64_t seed = 5;
  {
    const TestCase& t = case_named(p, "huge_logits");
    const Buffers in = draw_inputs(p, t, seed);
    const int64_t cols = t.params.at("cols");
    int overflowing = 0, underflowing = 0, ordinary = 0;
    for (int64_t r = 0; r < t.params.at("rows"); ++r) {
      const float* x = &in[0][r * cols];
      const float max = *std::max_element(x, x + cols);
      overflowing += max > 88.7f;
      underflowing += max < -87.0f;
      ordinary += std::abs(max) < 80;
    }
    CHECK(overflowing > 0);
    CHECK(underflowing > 0);
    CHECK(ordinary > 0);
    CHECK(*std::max_element(in[0].begin(), in[0].end()) > 9000);
  }
  {
    const TestCase& t = case_named(p, "constant_rows");
    const Buffers in = draw_inputs(p, t, seed);
    const RefBuffers out = expected_outputs(p, t, in);
    const int64_t cols = t.params.at("cols");
    std::set<float> values;
    for (int64_t r = 0; r < t.params.at("rows"); ++r) {
      const float* x = &in[0][r * cols];
      CHECK(std::all_of(x, x + cols, [&](float v) { return v == x[0]; }));
      values.insert(x[0]);
    }
    CHECK(values.count(0.0f) == 1);
    CHECK(values.count(-3.5f) == 1);
    CHECK(values.count(5000.0f) == 1);
    for (double v : out[0]) REQUIRE(v == doctest::Approx(1.0 / cols).epsilon(1e-12));
  }
  {
    const TestCase& t = case_named(p, "neg_inf");
    const Buffers in = draw_inputs(p, t, seed);
    const RefBuffers out = expected_outputs(p, t, in);
    const int64_t cols = t.params.at("cols");
    bool mostly_neg_inf = false, first = false, last = false, none = false;
    for (int64_t r = 0; r < t.params.at("rows"); ++r) {
      const float* x = &in[0][r * cols];
      const auto count = std::count_if(x, x + cols, [](float v) { return std::isinf(v); });
      CHECK(count < cols);  // at least one finite value
      mostly_neg_inf |= count == cols - 1;
      first |= std::isinf(x[0]) && count < cols - 1;
      last |= std::isinf(x[cols - 1]) && count < cols - 1;
      none |= count == 0;
      for (int64_t c = 0; c < cols; ++c) {
        if (std::isinf(x[c])) REQUIRE(out[0][r * cols + c] == 0.0);
      }
    }
    CHECK(mostly_neg_inf);
    CHECK(first);
    CHECK(last);
    CHECK(none);
    for (double v : out[0]) REQUIRE(std::isfinite(v));
  }
}
