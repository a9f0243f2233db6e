// Puzzle 1's own diagnoses: each appears for the wrong kernel it describes, and never for right outputs.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "judge_trial.hpp"

using namespace puzzle;
using trial::has;
using trial::Trial;

namespace {

// The puzzle's judge's diagnoses alone (not the generic ones), on the given output of a case.
std::vector<Diagnosis> diagnose(const Trial& t, const std::vector<float>& y) {
  const RefBuffers expected = expected_outputs(t.puzzle, t.test, t.inputs);
  const Buffers outputs = {y};
  CaseEvidence e{.puzzle = &t.puzzle,
                 .test = &t.test,
                 .inputs = &t.inputs,
                 .outputs = &outputs,
                 .expected = &expected,
                 .checks = {BufferCheck{.name = "y"}},
                 .record = {}};
  std::vector<Diagnosis> found;
  judge_of(t.puzzle).diagnose(e, found);
  return found;
}

}  // namespace

TEST_CASE("no puzzle diagnosis for right outputs, on any simulator case") {
  for (const TestCase& test : find_puzzle(1)->cases) {
    if (!test.sim) continue;
    const Trial t(test.name);
    INFO(test.name);
    CHECK(diagnose(t, t.y).empty());
  }
}

TEST_CASE("missing_max_subtraction: exp of huge logits") {
  const CaseResult r = Trial("huge_logits", {.subtract_max = false}).judge();
  CHECK(r.status == CaseStatus::failed);
  CHECK(has(r, "missing_max_subtraction"));
  CHECK(has(r, "nan_output"));

  const CaseResult constant = Trial("constant_rows", {.subtract_max = false}).judge();
  CHECK(has(constant, "missing_max_subtraction"));
  CHECK(has(constant, "wrong_constant_row"));

  // Wrong in ordinary rows too: something else is going on.
  Trial broken("huge_logits", {.subtract_max = false});
  broken.at(3, 5) = 0.5f;  // row 3 has ordinary values
  CHECK(!has(broken.judge(), "missing_max_subtraction"));
  CHECK(!has(Trial("127x129", {.divide = false}).judge(), "missing_max_subtraction"));
}

TEST_CASE("not_normalized: exp(x - max) without the division") {
  const CaseResult r = Trial("127x129", {.divide = false}).judge();
  CHECK(has(r, "not_normalized"));
  CHECK(trial::message_of(r, "not_normalized").find("without the division") != std::string::npos);
  CHECK(!has(r, "rows_sum_too_large"));
}

TEST_CASE("rows_sum_too_large: part of the row left out of the sum") {
  const CaseResult r = Trial("127x129", {.sum_columns = 96}).judge();
  CHECK(r.status == CaseStatus::failed);
  CHECK(has(r, "rows_sum_too_large"));
  CHECK(!has(r, "rows_sum_too_small"));
  CHECK(!has(r, "not_normalized"));
  CHECK(!has(r, "tail_columns"));  // every element of those rows is off
}

TEST_CASE("rows_sum_too_small: part of the row counted twice") {
  const CaseResult r = Trial("3x1000", {.twice_columns = 256}).judge();
  CHECK(has(r, "rows_sum_too_small"));
  CHECK(!has(r, "rows_sum_too_large"));
}

TEST_CASE("not_normalized: rows off in both directions") {
  Trial t("33x31");
  for (int64_t c = 0; c < t.cols(); ++c) {
    t.at(0, c) *= 1.5f;
    t.at(1, c) *= 0.5f;
  }
  const CaseResult r = t.judge();
  CHECK(has(r, "not_normalized"));
  CHECK(!has(r, "rows_sum_too_large"));
  CHECK(!has(r, "rows_sum_too_small"));
}

TEST_CASE("wrong_constant_row: constant rows must give 1/cols") {
  const CaseResult r = Trial("constant_rows", {.twice_columns = 1500}).judge();
  CHECK(has(r, "wrong_constant_row"));
  CHECK(trial::message_of(r, "wrong_constant_row").find("1/cols = 0.000333333") != std::string::npos);
  CHECK(!has(r, "missing_max_subtraction"));

  Trial one("constant_rows");
  one.at(1, 7) = std::numeric_limits<float>::quiet_NaN();
  CHECK(trial::message_of(one.judge(), "wrong_constant_row").find("row 1 has every x = -3.5") == 0);
  // A random case is not a constant-rows case.
  CHECK(!has(Trial("3x1000", {.twice_columns = 256}).judge(), "wrong_constant_row"));
}

TEST_CASE("neg_inf_nan: NaN from -inf - -inf, only in rows with -inf") {
  Trial t("neg_inf");
  for (int64_t r = 0; r < t.rows(); ++r) {
    for (int64_t c = 0; c < t.cols(); ++c) {
      if (std::isinf(t.x(r, c))) t.at(r, c) = std::numeric_limits<float>::quiet_NaN();
    }
  }
  CaseResult r = t.judge();
  CHECK(has(r, "neg_inf_nan"));
  CHECK(has(r, "nan_output"));

  t.at(7, 3) = std::numeric_limits<float>::quiet_NaN();  // row 7 has no -inf
  r = t.judge();
  CHECK(!has(r, "neg_inf_nan"));
  CHECK(has(r, "nan_output"));
}

TEST_CASE("tail_columns: the last partial chunk of each row") {
  Trial t("5x1025");
  for (int64_t r = 0; r < t.rows(); ++r) t.at(r, 1024) = 0.0f;
  CaseResult r = t.judge();
  CHECK(has(r, "tail_columns"));
  CHECK(trial::message_of(r, "tail_columns").find("columns 1024..1024") != std::string::npos);

  Trial u("3x1000");
  for (int64_t r = 0; r < u.rows(); ++r) {
    for (int64_t c = 768; c < u.cols(); ++c) u.at(r, c) = trial::poison();
  }
  r = u.judge();
  CHECK(has(r, "tail_columns"));
  CHECK(trial::message_of(r, "unwritten_elements").find("columns 768 and up") != std::string::npos);

  Trial scattered("3x1000");
  scattered.at(0, 0) *= 2;
  scattered.at(2, 500) *= 2;
  CHECK(!has(scattered.judge(), "tail_columns"));
}

TEST_CASE("rows_not_written: a grid smaller than rows") {
  Trial t("127x129");
  std::fill(t.y.begin() + 64 * 129, t.y.end(), trial::poison());
  CaseResult r = t.judge();
  CHECK(has(r, "rows_not_written"));
  CHECK(trial::message_of(r, "rows_not_written").find("rows 64..126") == 0);
  CHECK(trial::message_of(r, "unwritten_elements").find("whole rows: rows 64..126") != std::string::npos);
  CHECK(!has(r, "tail_columns"));

  Trial front("127x129");
  std::fill(front.y.begin(), front.y.begin() + 10 * 129, trial::poison());
  r = front.judge();
  CHECK(has(r, "unwritten_elements"));
  CHECK(!has(r, "rows_not_written"));
}
