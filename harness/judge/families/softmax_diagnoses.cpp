// The diagnoses of a wrong softmax row, shared by puzzles 1-4, and the ones only some algorithms show.
#include "families/softmax_diagnoses.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "compare.hpp"
#include "families/softmax_family.hpp"
#include "format.hpp"
#include "parallel_for.hpp"
#include "pattern.hpp"
#include "reference.hpp"

namespace puzzle::puzzles::softmax {

// Far beyond rounding (each element is within rtol = 1e-4 of its answer), far below any real bug.
constexpr double kOff = 1e-3;

bool RowFacts::uniformly_scaled() const {
  return wrong > 0 && finite_and_written() && low_ratio <= high_ratio &&
         high_ratio - low_ratio <= kOff * factor() && std::abs(factor() - 1) > kOff;
}

std::vector<RowFacts> row_facts(const CaseEvidence& e) {
  const int64_t rows = rows_of(e.test->params), cols = cols_of(e.test->params);
  const std::vector<float>& x = (*e.inputs)[0];
  const std::vector<float>& y = (*e.outputs)[0];
  const std::vector<double>& want = (*e.expected)[0];
  const double atol = e.puzzle->tolerance.atol;
  std::vector<RowFacts> facts(rows);
  for (int64_t i = 0; i < rows * cols; ++i) {
    RowFacts& f = facts[i / cols];
    const Outcome outcome = compare_element(y[i], want[i], e.puzzle->tolerance);
    f.wrong += outcome != Outcome::ok;
    f.nan += outcome == Outcome::nan;
    f.inf += outcome == Outcome::inf;
    f.unwritten += outcome == Outcome::unwritten;
    const bool significant = want[i] > atol;
    f.significant += significant;
    f.significant_wrong += significant && outcome != Outcome::ok;
    if (outcome != Outcome::unwritten && std::isfinite(y[i])) {
      f.all_zero &= y[i] == 0.0f;
      f.sum += y[i];
      f.max_out = std::max(f.max_out, static_cast<double>(y[i]));
    }
    if (want[i] > 10 * atol) {  // well above atol: y / want is its scale, not noise
      f.low_ratio = std::min(f.low_ratio, y[i] / want[i]);
      f.high_ratio = std::max(f.high_ratio, y[i] / want[i]);
    }
    f.max_in = std::max(f.max_in, x[i]);
    f.has_neg_inf |= x[i] == -INFINITY;
  }
  for (int64_t r = 0; r < rows; ++r) {
    RowFacts& f = facts[r];
    f.ref_max = f.max_in;
    for (int64_t c = 0; c < cols; ++c)
      f.ref_sum += std::exp(static_cast<double>(x[r * cols + c]) - f.ref_max);
  }
  return facts;
}

namespace {

bool undivided(const RowFacts& f) {  // y = exp(x - max): the factor is the row's sum
  return f.uniformly_scaled() && std::abs(f.factor() / f.ref_sum - 1) <= kOff;
}

std::vector<bool> flag_elements(const CaseEvidence& e, bool (*flag)(Outcome)) {
  const std::vector<float>& y = (*e.outputs)[0];
  std::vector<bool> flagged(y.size());
  for (size_t i = 0; i < y.size(); ++i) {
    flagged[i] = flag(compare_element(y[i], (*e.expected)[0][i], e.puzzle->tolerance));
  }
  return flagged;
}

void rows_not_written(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  const int64_t rows = rows_of(e.test->params);
  const auto p = find_pattern(flag_elements(e, [](Outcome o) { return o == Outcome::unwritten; }),
                              cols_of(e.test->params));
  if (p.shape != ElementPattern::Shape::whole_rows || !p.rows_contiguous || p.last_row != rows - 1 ||
      p.first_row == 0) {
    return;
  }
  out.push_back(
      {"rows_not_written",
       "rows " + std::to_string(p.first_row) + ".." + std::to_string(rows - 1) +
           " were never written: the grid covers only the first " + std::to_string(p.first_row) + " of " +
           std::to_string(rows) +
           " rows. Launch one block per row (grid = rows), or loop over rows with a stride of gridDim.x"});
}

// exp(x) overflows in float above ~88.7, and a row whose values are all below ~-87 sums to 0 or a
// denormal: only there does a missing (or partial) max subtraction show.
bool needs_max_subtraction(const RowFacts& f) {
  return f.max_in > 88.7f || f.max_in < -87.0f;
}

void missing_max_subtraction(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out) {
  bool any_wrong = false, blown_up = false;
  float largest = 0;
  for (const RowFacts& f : facts) {
    if (f.wrong == 0) continue;
    if (!needs_max_subtraction(f)) return;
    any_wrong = true;
    blown_up |= f.nan + f.inf > 0 || (f.all_zero && f.unwritten == 0);
    largest = std::max(largest, std::abs(f.max_in));
  }
  if (!any_wrong || !blown_up) return;
  out.push_back({"missing_max_subtraction",
                 "only rows with huge values (up to |x| = " + std::to_string(static_cast<int>(largest)) +
                     ") are wrong, with inf, NaN or all-zero outputs: exp overflows above 88.7 in float. "
                     "Subtract the maximum of the whole row before exp, so that exp(x - max) <= 1"});
}

void neg_inf_nan(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out) {
  int64_t first = -1;
  for (size_t r = 0; r < facts.size(); ++r) {
    if (facts[r].nan == 0) continue;
    if (!facts[r].has_neg_inf) return;  // NaN without -inf: something else
    if (first < 0) first = static_cast<int64_t>(r);
  }
  if (first < 0) return;
  out.push_back(
      {"neg_inf_nan",
       "NaN only in rows that contain -inf (the first: row " + std::to_string(first) +
           "): -inf - (-inf) is NaN. A thread or warp whose part of the row is all -inf has max -inf; "
           "skip exp(x - max) when max is -inf, and never rescale by exp(m_old - m_new) when both are -inf"});
}

void wrong_constant_row(const CaseEvidence& e, const std::vector<RowFacts>& facts,
                        std::vector<Diagnosis>& out) {
  if (e.test->input_kind != "constant_rows") return;
  const int64_t cols = cols_of(e.test->params);
  for (size_t r = 0; r < facts.size(); ++r) {
    if (facts[r].wrong == 0) continue;
    const float* y = &(*e.outputs)[0][r * cols];
    float low = INFINITY, high = -INFINITY;
    int64_t not_finite = 0;  // NaN, inf or never written
    for (int64_t c = 0; c < cols; ++c) {
      if (!std::isfinite(y[c])) {
        ++not_finite;
        continue;
      }
      low = std::min(low, y[c]);
      high = std::max(high, y[c]);
    }
    std::string message =
        "row " + std::to_string(r) + " has every x = " + format_number((*e.inputs)[0][r * cols], 6) +
        ", so every y must be 1/cols = " + format_number(1.0 / static_cast<double>(cols), 6) + "; got ";
    if (not_finite < cols) message += "values from " + format_number(low) + " to " + format_number(high);
    if (not_finite > 0) {
      message += (not_finite < cols ? " and " : "") + std::to_string(not_finite) + " NaN, inf or unwritten";
    }
    out.push_back({"wrong_constant_row", message});
    return;
  }
}

// Rows whose outputs are finite and mostly wrong: a wrong normalizer scales the whole row.
void row_sums(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out) {
  int64_t too_large = 0, too_small = 0, undivided = 0, considered = 0;
  double low = INFINITY, high = -INFINITY;
  for (const RowFacts& f : facts) {
    if (f.wrong == 0 || f.nan + f.inf + f.unwritten > 0 || 2 * f.significant_wrong < f.significant) continue;
    ++considered;
    low = std::min(low, f.sum);
    high = std::max(high, f.sum);
    too_large += f.sum > 1 + kOff;
    too_small += f.sum < 1 - kOff;
    undivided += f.sum > 1 + kOff && std::abs(f.max_out - 1) <= kOff;
  }
  if (too_large + too_small == 0) return;
  const std::string range =
      "wrong rows of y sum to " + format_number(low, 4) + ".." + format_number(high, 4) + " instead of 1";
  if (undivided == considered) {
    out.push_back({"not_normalized", range + ", and each one's largest value is 1: y looks like exp(x - max) "
                                             "without the division by the row's sum"});
  } else if (too_small == 0) {
    out.push_back(
        {"rows_sum_too_large", range + ": the sum you divide by misses part of the row. Is each block or "
                                       "warp dividing by its own partial sum, or are the tail columns left "
                                       "out of the sum?"});
  } else if (too_large == 0) {
    out.push_back({"rows_sum_too_small", range +
                                             ": the sum you divide by is too large. Does it count some "
                                             "elements twice (overlapping loops, a partial sum added twice), "
                                             "take in values from outside the row (another row, past the "
                                             "end), or miss a rescale when the max changed?"});
  } else {
    out.push_back({"not_normalized", range + ": some rows are too large and some too small"});
  }
}

void tail_columns(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  const int64_t cols = cols_of(e.test->params);
  const auto p = find_pattern(flag_elements(e, [](Outcome o) { return o != Outcome::ok; }), cols);
  if (p.shape != ElementPattern::Shape::tail_columns) return;
  out.push_back(
      {"tail_columns", "every wrong element is in columns " + std::to_string(p.tail_from) + ".." +
                           std::to_string(cols - 1) + " of its row (cols = " + std::to_string(cols) +
                           "): the tail when cols is not a multiple of the block size or loop stride. "
                           "Bound each access with c < cols rather than skipping the last chunk"});
}

// The rows that fail, when every one of them is the right answer times its own factor; empty when
// some failing row is wrong in another way (a diagnosis built on scaling would mislead there).
std::vector<size_t> scaled_rows(const std::vector<RowFacts>& facts) {
  std::vector<size_t> scaled;
  for (size_t r = 0; r < facts.size(); ++r) {
    if (facts[r].wrong == 0) continue;
    if (!facts[r].uniformly_scaled()) return {};
    scaled.push_back(r);
  }
  return scaled;
}

void row_scaled(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out) {
  const std::vector<size_t> scaled = scaled_rows(facts);
  if (scaled.empty() ||
      std::all_of(scaled.begin(), scaled.end(), [&](size_t r) { return undivided(facts[r]); }))
    return;
  const RowFacts& first = facts[scaled[0]];
  out.push_back(
      {"row_scaled",
       "row " + std::to_string(scaled[0]) + " is the right answer times " + format_number(first.factor(), 4) +
           ", every element of it (" + std::to_string(scaled.size()) +
           " wrong rows like this, each with one factor): the value you divide by is wrong. Was it a "
           "sum or max of another row, a sum not rescaled when the max grew, or a sum over part of "
           "the row?"});
}

}  // namespace

void tiles_normalized_separately(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out) {
  int64_t considered = 0;
  bool divided = false;  // rows of exp(x - max) alone may sum to a whole number too (constant rows: cols)
  double most = 0;
  for (const RowFacts& f : facts) {
    if (f.wrong == 0) continue;
    const double tiles = std::round(f.sum);
    if (!f.finite_and_written() || tiles < 2 || std::abs(f.sum - tiles) > kOff * tiles) return;
    ++considered;
    divided |= !undivided(f);
    most = std::max(most, tiles);
  }
  if (considered == 0 || !divided) return;
  out.push_back(
      {"tiles_normalized_separately",
       "every wrong row sums to a whole number (up to " + std::to_string(static_cast<int64_t>(most)) +
           ") instead of 1: each tile was divided by its own sum, so each tile sums to 1. The max and "
           "the sum must cover the whole row: one loop over all tiles for the max, a second for the "
           "sum of exp(x - max), and only then a third that writes y"});
}

void online_missing_rescale(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out) {
  const std::vector<size_t> scaled = scaled_rows(facts);
  if (scaled.empty()) return;
  double low = INFINITY, high = 0;
  for (size_t r : scaled) {
    if (facts[r].factor() >= 1 || undivided(facts[r])) return;
    low = std::min(low, facts[r].factor());
    high = std::max(high, facts[r].factor());
  }
  out.push_back(
      {"online_missing_rescale",
       "wrong rows are the right answer times factors " + format_number(low, 4) + ".." +
           format_number(high, 4) +
           " below 1: the sum you divide by is too large. When the running max grows from m_old to m_new, "
           "the "
           "running sum must be rescaled, s = s * exp(m_old - m_new) + exp(x - m_new), and two (m, s) pairs "
           "combine as s = s_a * exp(m_a - m) + s_b * exp(m_b - m) with m = max(m_a, m_b)"});
}

void rows_mixed(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out) {
  constexpr int64_t kReach = 32;  // rows of one block, at most
  // As close as float arithmetic leaves a borrowed normalizer: an arbitrary factor matches one of the
  // 3 * 64 candidates only by a rare coincidence, and every wrong row must match.
  const auto near = [](double a, double b) { return std::abs(a / b - 1) <= 1e-4; };
  const std::vector<size_t> scaled = scaled_rows(facts);
  if (scaled.empty()) return;
  int64_t source = -1;
  for (size_t r : scaled) {
    const RowFacts& f = facts[r];
    bool found = false;
    const int64_t rows = static_cast<int64_t>(facts.size()), row = static_cast<int64_t>(r);
    for (int64_t q = std::max<int64_t>(0, row - kReach); q < std::min(rows, row + kReach + 1) && !found;
         ++q) {
      if (q == row) continue;
      const RowFacts& g = facts[q];
      const double shift = std::exp(f.ref_max - g.ref_max), sums = f.ref_sum / g.ref_sum;
      found = near(f.factor(), sums) || near(f.factor(), shift) || near(f.factor(), shift * sums);
      if (found && source < 0) source = q;
    }
    if (!found) return;
  }
  out.push_back(
      {"rows_mixed", "row " + std::to_string(scaled[0]) +
                         " was divided by the sum (or shifted by the max) of row " + std::to_string(source) +
                         ", and every wrong row likewise by a neighbour's: one row's max or sum reached "
                         "another row. Give each row its own max and sum (its own warp's registers, or "
                         "shared memory indexed by the row in the block); with several rows per warp, pass "
                         "the width argument to every __shfl_*_sync so that lanes stay within their row"});
}

void family_diagnoses(const CaseEvidence& e, const std::vector<ExtraDiagnosis>& extras,
                      std::vector<Diagnosis>& out) {
  if (!e.checks[0].available) return;
  const std::vector<RowFacts> facts = row_facts(e);
  rows_not_written(e, out);
  missing_max_subtraction(facts, out);
  neg_inf_nan(facts, out);
  wrong_constant_row(e, facts, out);
  row_sums(facts, out);
  row_scaled(facts, out);
  tail_columns(e, out);
  for (const ExtraDiagnosis extra : extras) extra(facts, out);
}

void reference(const Params& p, const Buffers& inputs, RefBuffers& outputs) {
  const int64_t rows = rows_of(p), cols = cols_of(p);
  parallel_ranges(rows, (1 << 16) / cols + 1, [&](int64_t first, int64_t end) {
    for (int64_t r = first; r < end; ++r)
      reference::softmax_row(&inputs[0][r * cols], cols, &outputs[0][r * cols]);
  });
}

Judge judge(const std::vector<std::string>& extra_diagnoses) {
  static const std::map<std::string, ExtraDiagnosis> kExtras = {
      {"tiles_normalized_separately", tiles_normalized_separately},
      {"online_missing_rescale", online_missing_rescale},
      {"rows_mixed", rows_mixed},
  };
  std::vector<ExtraDiagnosis> extras;
  for (const std::string& name : extra_diagnoses) {
    const auto it = kExtras.find(name);
    if (it == kExtras.end()) throw std::logic_error("the softmax judge has no diagnosis \"" + name + "\"");
    extras.push_back(it->second);
  }
  return {.reference = reference, .diagnose = [extras](const CaseEvidence& e, std::vector<Diagnosis>& out) {
            family_diagnoses(e, extras, out);
          }};
}

}  // namespace puzzle::puzzles::softmax
