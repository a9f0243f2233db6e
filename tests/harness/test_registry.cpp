#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "case_data.hpp"
#include "judges.hpp"
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
  CHECK(find_puzzle("99") == nullptr);
  CHECK(find_puzzle("") == nullptr);
  CHECK(find_puzzle("softmax") == nullptr);
  CHECK(find_puzzle(-1) == nullptr);
  CHECK(find_puzzle("00") == find_puzzle(0));  // the warm-up
  CHECK(find_puzzle("map_and_sum") == find_puzzle(0));
}

TEST_CASE("row_softmax is described completely") {
  const PuzzleSpec& p = *find_puzzle(1);
  CHECK(p.slug == "row_softmax");
  CHECK(p.file == "01_row_softmax.cu");
  CHECK(p.docs == "puzzles/01_row_softmax/README.md");
  CHECK(stub_path(p) == "puzzles/01_row_softmax/01_row_softmax.cu");
  CHECK(solutions_folder(p) == "solutions/01_row_softmax");
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

TEST_CASE("puzzles 2-4 are described completely, with cases that fit their contract") {
  struct Expected {
    int id;
    std::string slug, traffic;
    int lines;
  };
  for (const Expected& want : {Expected{2, "tiled_softmax", "read x 3 times, write y once", 50},
                               Expected{3, "online_softmax", "read x twice, write y once", 50},
                               Expected{4, "blocked_softmax", "read x twice, write y once", 60}}) {
    CAPTURE(want.slug);
    const PuzzleSpec* found = find_puzzle(want.slug);
    REQUIRE(found != nullptr);
    const PuzzleSpec& p = *found;
    const std::string stem = "0" + std::to_string(want.id) + "_" + want.slug;
    CHECK(p.id == want.id);
    CHECK(find_puzzle(want.id) == found);
    CHECK(p.file == stem + ".cu");
    CHECK(p.docs == "puzzles/" + stem + "/README.md");
    CHECK(p.signature == "void " + want.slug + "(const float* x, float* y, int rows, int cols)");
    CHECK(p.traffic_budget == want.traffic);
    CHECK(p.line_budget == want.lines);
    REQUIRE(p.inputs.size() == 1);
    REQUIRE(p.outputs.size() == 1);
    const Params params{{"rows", 3}, {"cols", 100003}};
    CHECK(p.outputs[0].locate(params, 100005) == "row 1, col 2");
    CHECK(p.min_bytes(params) == 2.0 * 300009 * 4);
    CHECK(std::set<std::string>(p.hints.begin(), p.hints.end()).size() == 3);

    std::set<std::string> names, kinds;
    int64_t sim_elements = 0, widest = 0;
    bool big_perf = false;
    for (const TestCase& t : p.cases) {
      CAPTURE(t.name);
      const int64_t rows = t.params.at("rows"), cols = t.params.at("cols");
      CHECK(names.insert(t.name).second);
      CHECK(rows >= 1);
      CHECK(cols >= 1);
      CHECK(cols <= 1'048'576);
      CHECK(!t.about.empty());
      CHECK(t.points == 1);
      if (t.perf) CHECK(!t.sim);
      // Larger than any L2 (50 MiB on an H100), with rows longer than a block holds.
      big_perf |= t.perf && cols >= 2048 && 8.0 * rows * cols > 100e6;
      if (!t.sim) continue;
      kinds.insert(t.input_kind);
      sim_elements += rows * cols;
      widest = std::max(widest, cols);
    }
    CHECK(big_perf);
    CHECK(kinds ==
          std::set<std::string>{"random", "huge_logits", "constant_rows", "neg_inf", "neg_inf_tiles"});
    CHECK(widest > 200000);            // rows of hundreds of tiles on the simulator
    CHECK(sim_elements < 16'000'000);  // the simulator runs them all in seconds
    for (const char* name : {"1x1", "1x262145", "2x100003", "3x255", "3x256", "3x257", "3x1023", "3x1025",
                             "3x4095", "3x4097", "3x8191", "3x8193", "neg_inf_tiles", "4x1048576"}) {
      CHECK(names.count(name) == 1);
    }
  }
  const PuzzleSpec& blocked = *find_puzzle(4);
  for (const char* name : {"999x7", "1001x33", "100000x32", "65536x100", "1000000x32", "65536x128"}) {
    CHECK(case_named(blocked, name).params.at("rows") >= 999);
  }
  CHECK(!case_named(blocked, "1000000x32").sim);
  CHECK(case_named(blocked, "65536x128").perf);
}

TEST_CASE("neg_inf_tiles: whole tiles of -inf, at the front and in the middle, and a finite value per row") {
  const PuzzleSpec& p = *find_puzzle(3);
  const TestCase& t = case_named(p, "neg_inf_tiles");
  const Buffers in = draw_inputs(p, t, 3);
  const RefBuffers out = expected_outputs(p, t, in);
  const int64_t cols = t.params.at("cols");
  const auto all_neg_inf = [](const float* from, int64_t n) {
    return std::all_of(from, from + n, [](float v) { return v == -INFINITY; });
  };
  bool leading = false, middle = false;
  for (int64_t r = 0; r < t.params.at("rows"); ++r) {
    const float* x = &in[0][r * cols];
    CHECK(!all_neg_inf(x, cols));
    leading |= all_neg_inf(x, 65536) && !std::isinf(x[cols - 1]);
    middle |= !std::isinf(x[0]) && all_neg_inf(x + cols / 3, cols / 3);
  }
  CHECK(leading);
  CHECK(middle);
  for (double v : out[0]) REQUIRE(std::isfinite(v));
}
