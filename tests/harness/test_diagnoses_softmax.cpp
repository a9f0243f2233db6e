// The softmax family's diagnoses on long rows (puzzles 2-4): each appears for the wrong kernel it
// describes, and not for right outputs or for the other bugs. Right outputs of every simulator case
// get no diagnosis at all (test_judge_long_rows.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "judge_trial.hpp"

using namespace puzzle;
using trial::has;
using trial::message_of;
using trial::Trial;

namespace {

const fp32::Kernel kBlock{.fast_exp = true, .threads = 256};
const fp32::Kernel kOnline{.fast_exp = true, .threads = 256, .online = true};

void scale_row(Trial& t, int64_t row, float factor) {
  for (int64_t c = 0; c < t.cols(); ++c) t.at(row, c) *= factor;
}

// Row `row` divided by the sum of exp(x - max) of row `from` instead of its own.
void borrow_sum(Trial& t, int64_t row, int64_t from) {
  const auto sum_of = [&](int64_t r) {
    float max = -INFINITY, sum = 0;
    for (int64_t c = 0; c < t.cols(); ++c) max = std::max(max, t.x(r, c));
    for (int64_t c = 0; c < t.cols(); ++c) sum += std::exp(t.x(r, c) - max);
    return sum;
  };
  scale_row(t, row, sum_of(row) / sum_of(from));
}

}  // namespace

TEST_CASE("row_scaled: whole rows times one factor, and the factor named") {
  Trial t(2, "3x4097", kBlock);
  scale_row(t, 0, 1.25f);
  scale_row(t, 2, 0.5f);
  const CaseResult r = t.judge();
  CHECK(has(r, "row_scaled"));
  CHECK(message_of(r, "row_scaled").find("row 0 is the right answer times 1.25") == 0);
  CHECK(!has(r, "tiles_normalized_separately"));

  Trial partly(2, "3x4097", kBlock);
  for (int64_t c = 0; c < 2048; ++c) partly.at(1, c) *= 1.25f;  // half a row: not one factor
  CHECK(!has(partly.judge(), "row_scaled"));
  // exp(x - max) without the division is not_normalized's to explain.
  CHECK(!has(Trial(2, "3x4097", {.divide = false}).judge(), "row_scaled"));
  CHECK(has(Trial(1, "127x129", {.sum_columns = 96}).judge(), "row_scaled"));
}

TEST_CASE("tiles_normalized_separately: the naive tiled softmax, each tile summing to 1") {
  for (const int id : {2, 3}) {
    const CaseResult r = Trial(id, "2x100003", {.tile = 1024}).judge();
    CHECK(r.status == CaseStatus::failed);
    CHECK(has(r, "tiles_normalized_separately"));
    CHECK(message_of(r, "tiles_normalized_separately").find("up to 98)") != std::string::npos);
    CHECK(!has(r, "row_scaled"));
    CHECK(!has(r, "online_missing_rescale"));
  }
  CHECK(has(Trial(2, "3x257", {.tile = 256}).judge(), "tiles_normalized_separately"));
  // Constant rows without the division also sum to a whole number (cols): not this bug.
  CHECK(!has(Trial(2, "constant_rows", {.divide = false}).judge(), "tiles_normalized_separately"));
  CHECK(
      !has(Trial(3, "2x100003", {.fast_exp = true, .threads = 256, .online = true, .rescale = false}).judge(),
           "tiles_normalized_separately"));
}

TEST_CASE("online_missing_rescale: the running sum kept when the max grew") {
  fp32::Kernel no_rescale = kOnline;
  no_rescale.rescale = false;
  for (const char* name : {"2x100003", "3x4097", "1x262145"}) {
    const CaseResult r = Trial(3, name, no_rescale).judge();
    INFO(name, ": ", trial::all_ids(r));
    CHECK(r.status == CaseStatus::failed);
    CHECK(has(r, "online_missing_rescale"));
    CHECK(!has(r, "tiles_normalized_separately"));
  }
  // A warp per row (puzzle 4's way) without the rescale, on puzzle 3's cases.
  no_rescale.threads = 32;
  CHECK(has(Trial(3, "3x65537", no_rescale).judge(), "online_missing_rescale"));
  // Too small a sum (part of the row left out) is the opposite direction.
  const CaseResult partial = Trial(3, "3x4097", {.sum_columns = 4000}).judge();
  CHECK(has(partial, "row_scaled"));
  CHECK(!has(partial, "online_missing_rescale"));
  CHECK(!has(Trial(3, "2x100003", {.tile = 1024}).judge(), "online_missing_rescale"));
}

TEST_CASE("rows_mixed: a row divided by a neighbour's sum") {
  Trial t(4, "1001x33", kOnline);
  for (int64_t r = 3; r < t.rows(); r += 8) borrow_sum(t, r, r - 1);
  const CaseResult r = t.judge();
  CHECK(has(r, "rows_mixed"));
  CHECK(message_of(r, "rows_mixed").find("row 3 was divided by the sum (or shifted by the max) of row 2") ==
        0);
  CHECK(has(r, "row_scaled"));

  Trial scaled(4, "1001x33", kOnline);
  for (int64_t r = 3; r < scaled.rows(); r += 8) scale_row(scaled, r, 1.25f);
  CHECK(!has(scaled.judge(), "rows_mixed"));
  fp32::Kernel no_rescale = kOnline;
  no_rescale.threads = 32;
  no_rescale.rescale = false;
  const CaseResult missing = Trial(4, "65536x100", no_rescale).judge();
  CHECK(has(missing, "row_scaled"));
  CHECK(!has(missing, "rows_mixed"));
}

TEST_CASE("puzzle 1's diagnoses fire on long rows too") {
  const CaseResult huge = Trial(3, "huge_logits", {.subtract_max = false}).judge();
  CHECK(has(huge, "missing_max_subtraction"));

  fp32::Kernel unguarded = kOnline;
  unguarded.guard_neg_inf = false;
  const CaseResult nan = Trial(3, "neg_inf_tiles", unguarded).judge();
  CHECK(has(nan, "neg_inf_nan"));
  CHECK(!has(Trial(3, "neg_inf_tiles", kOnline).judge(), "neg_inf_nan"));

  Trial tail(2, "1x262145", kBlock);
  tail.at(0, 262144) = trial::poison();
  const CaseResult r = tail.judge();
  CHECK(has(r, "tail_columns"));
  CHECK(message_of(r, "tail_columns").find("columns 262144..262144") != std::string::npos);

  Trial grid(4, "999x7", kOnline);
  std::fill(grid.y.begin() + 512 * 7, grid.y.end(), trial::poison());
  CHECK(message_of(grid.judge(), "rows_not_written").find("rows 512..998") == 0);

  Trial constant(4, "constant_rows", {.twice_columns = 3});
  CHECK(has(constant.judge(), "wrong_constant_row"));
}
