// Puzzle 1: softmax of each row of a matrix, the first step towards attention.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "compare.hpp"
#include "format.hpp"
#include "pattern.hpp"
#include "puzzles/puzzles.hpp"
#include "reference.hpp"
#include "rng.hpp"
#include "verdict.hpp"

namespace puzzle::puzzles {
namespace {

constexpr int kId = 1;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

int64_t rows_of(const Params& p) {
  return p.at("rows");
}
int64_t cols_of(const Params& p) {
  return p.at("cols");
}

TestCase sized(int64_t rows, int64_t cols, std::string about) {
  return {.name = std::to_string(rows) + "x" + std::to_string(cols),
          .params = {{"rows", rows}, {"cols", cols}},
          .input_kind = "random",
          .about = std::move(about)};
}

TestCase named(std::string name, int64_t rows, int64_t cols, std::string about) {
  TestCase test = sized(rows, cols, std::move(about));
  test.input_kind = test.name = std::move(name);
  return test;
}

TestCase timed(int64_t rows, int64_t cols, std::string about) {
  TestCase test = sized(rows, cols, std::move(about));
  test.perf = true;
  test.sim = false;
  return test;
}

std::vector<TestCase> cases() {
  return {
      sized(1, 1, "a single element: the answer is exactly 1"),
      sized(1, 17, "one short row, fewer columns than a warp has threads"),
      sized(2, 32, "rows exactly one warp wide"),
      sized(33, 31, "one row more than a warp, one column less"),
      sized(3, 1000, "rows that are not a multiple of any block size"),
      sized(5, 1025, "one column past 1024: the last column is a chunk of its own"),
      sized(127, 129, "both sides of 128"),
      sized(257, 1024, "rows exactly 1024 wide, one row past 256"),
      sized(1000, 4097, "rows one past a power of two, longer than any block"),
      sized(64, 16384, "the widest rows allowed"),
      sized(1, 16384, "one wide row: a single block does all the work"),
      sized(4096, 4096, "a large square"),
      named("huge_logits", 64, 1000,
            "logits up to 1e4: exp overflows unless the row's max is subtracted first"),
      named("constant_rows", 8, 3000,
            "every row one value (0, -3.5, 5000, ...): the answer is 1/cols everywhere"),
      named("neg_inf", 32, 999, "rows with -inf entries, some almost all -inf: exp(-inf) = 0, never NaN"),
      timed(8192, 8192, "bandwidth: 512 MiB moved"),
      timed(16384, 4096, "bandwidth with many shorter rows"),
  };
}

// Normal values plus a few outliers per row, so that the answer is far from uniform. The outliers
// sit at ln(cols) + [0, 2): together they hold most of the row's mass, yet an ordinary element still
// gets ~1e-7 or more, well above atol, so an error anywhere in the row is seen. (Outliers at +10..+25
// would push every other element of a wide row below atol, where nothing is checked.)
void random_rows(Rng& rng, float* x, int64_t rows, int64_t cols) {
  const int64_t outliers = std::min<int64_t>(3, (cols + 7) / 8);
  for (int64_t r = 0; r < rows; ++r) {
    float* row = x + r * cols;
    for (int64_t c = 0; c < cols; ++c) row[c] = static_cast<float>(rng.normal());
    for (int64_t k = 0; k < outliers; ++k) {
      row[rng.below(cols)] = static_cast<float>(std::log(static_cast<double>(cols)) + rng.uniform(0, 2));
    }
  }
}

// Four kinds of row, in turn: far from zero (exp overflows or underflows in float unless the max is
// subtracted), spread over [-1e4, 1e4] (a max taken over part of the row leaves exp(x - max) = inf),
// just past float exp's range (100, -120), and ordinary rows that work either way.
void huge_logit_rows(Rng& rng, float* x, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const double sign = (r / 4) % 2 == 0 ? 1.0 : -1.0;
    for (int64_t c = 0; c < cols; ++c) {
      double value = 0;
      switch (r % 4) {
        case 0:
          value = sign * 1e4 + 3 * rng.normal();
          break;
        case 1:
          value = rng.uniform(-1e4, 1e4);
          break;
        case 2:
          value = (sign > 0 ? 100.0 : -120.0) + rng.normal();
          break;
        case 3:
          value = 3 * rng.normal();
          break;
      }
      x[r * cols + c] = static_cast<float>(value);
    }
  }
}

void constant_rows(float* x, int64_t rows, int64_t cols) {
  static constexpr float kValues[] = {0.0f, -3.5f, 5000.0f, -5000.0f, 1.0f, 88.75f, -104.0f, 1e-3f};
  for (int64_t r = 0; r < rows; ++r) std::fill_n(x + r * cols, cols, kValues[r % std::size(kValues)]);
}

// Eight kinds of row, in turn; every row keeps at least one finite value, and the last kind has no
// -inf at all (a control for the NaN diagnosis).
void neg_inf_rows(Rng& rng, float* x, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    float* row = x + r * cols;
    for (int64_t c = 0; c < cols; ++c) row[c] = static_cast<float>(rng.normal());
    const auto all_but = [&](int64_t keep) {
      const float kept = row[keep];
      std::fill_n(row, cols, kNegInf);
      row[keep] = kept;
    };
    switch (r % 8) {
      case 0:
        all_but(rng.below(cols));
        break;
      case 1:
        row[0] = kNegInf;
        break;
      case 2:
        row[cols - 1] = kNegInf;
        break;
      case 3:
        row[0] = row[cols - 1] = kNegInf;
        break;
      case 4:
        for (int64_t c = 0; c < cols; c += 2) row[c] = kNegInf;
        break;
      case 5:
        all_but(cols - 1);
        break;
      case 6:
        all_but(0);
        break;
      case 7:
        break;
    }
  }
}

void make_inputs(const TestCase& test, uint64_t seed, Buffers& inputs) {
  Rng rng = Rng::for_buffer(seed, kId, test.name, 0);
  float* x = inputs[0].data();
  const int64_t rows = rows_of(test.params), cols = cols_of(test.params);
  if (test.input_kind == "random") return random_rows(rng, x, rows, cols);
  if (test.input_kind == "huge_logits") return huge_logit_rows(rng, x, rows, cols);
  if (test.input_kind == "constant_rows") return constant_rows(x, rows, cols);
  if (test.input_kind == "neg_inf") return neg_inf_rows(rng, x, rows, cols);
  throw std::invalid_argument("row_softmax: unknown input kind " + test.input_kind);
}

void reference(const Params& p, const Buffers& inputs, RefBuffers& outputs) {
  const int64_t rows = rows_of(p), cols = cols_of(p);
  for (int64_t r = 0; r < rows; ++r)
    reference::softmax_row(&inputs[0][r * cols], cols, &outputs[0][r * cols]);
}

// --- Diagnoses: each one only when the outputs show its signature. ---

struct RowFacts {
  int64_t wrong = 0, nan = 0, inf = 0, unwritten = 0;
  int64_t significant = 0, significant_wrong = 0;  // elements whose answer is above atol
  bool all_zero = true;
  double sum = 0, max_out = -INFINITY;  // over the written, finite outputs
  float max_in = kNegInf;
  bool has_neg_inf = false;
};

std::vector<RowFacts> row_facts(const CaseEvidence& e) {
  const int64_t rows = rows_of(e.test->params), cols = cols_of(e.test->params);
  const std::vector<float>& x = (*e.inputs)[0];
  const std::vector<float>& y = (*e.outputs)[0];
  const std::vector<double>& want = (*e.expected)[0];
  std::vector<RowFacts> facts(rows);
  for (int64_t i = 0; i < rows * cols; ++i) {
    RowFacts& f = facts[i / cols];
    const Outcome outcome = compare_element(y[i], want[i], e.puzzle->tolerance);
    f.wrong += outcome != Outcome::ok;
    f.nan += outcome == Outcome::nan;
    f.inf += outcome == Outcome::inf;
    f.unwritten += outcome == Outcome::unwritten;
    const bool significant = want[i] > e.puzzle->tolerance.atol;
    f.significant += significant;
    f.significant_wrong += significant && outcome != Outcome::ok;
    if (outcome != Outcome::unwritten && std::isfinite(y[i])) {
      f.all_zero &= y[i] == 0.0f;
      f.sum += y[i];
      f.max_out = std::max(f.max_out, static_cast<double>(y[i]));
    }
    f.max_in = std::max(f.max_in, x[i]);
    f.has_neg_inf |= x[i] == kNegInf;
  }
  return facts;
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
  constexpr double kOff = 1e-3;  // far beyond rounding: each element is within rtol = 1e-4
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
                                             ": the sum you divide by counts some elements twice. Do two "
                                             "threads' loops overlap, or is a partial sum added twice in the "
                                             "reduction?"});
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

void diagnose(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  if (!e.checks[0].available) return;
  const std::vector<RowFacts> facts = row_facts(e);
  rows_not_written(e, out);
  missing_max_subtraction(facts, out);
  neg_inf_nan(facts, out);
  wrong_constant_row(e, facts, out);
  row_sums(facts, out);
  tail_columns(e, out);
}

}  // namespace

PuzzleSpec row_softmax() {
  const auto elements = [](const Params& p) { return rows_of(p) * cols_of(p); };
  const auto locate = [](const Params& p, int64_t i) {
    return "row " + std::to_string(i / cols_of(p)) + ", col " + std::to_string(i % cols_of(p));
  };
  return {
      .id = kId,
      .slug = "row_softmax",
      .title = "Row softmax",
      .summary = "Softmax of every row of a matrix, stable for any input: the core of attention.",
      .file = "01_row_softmax.cu",
      .docs = "docs/01_row_softmax.md",
      .signature = "void row_softmax(const float* x, float* y, int rows, int cols)",
      .inputs = {{"x", elements, locate, cols_of}},
      .outputs = {{"y", elements, locate, cols_of}},
      .cases = cases(),
      // rtol 1e-4: a right kernel's error comes from summing up to 16384 floats (~1e-6 relative for a
      // tree reduction, a few 1e-5 at worst for one long sequential sum) and from __expf (a few ulp,
      // ~2e-6 relative at |x - max| ~ 30); 1e-4 leaves room for both. Wrong kernels miss by more: a
      // chunk of the row left out of the sum, or counted twice, shifts the whole row by that chunk's
      // share (one ordinary element of a 1000-wide row holds ~1e-4), and a wrong max gives inf/NaN on
      // huge_logits. atol 1e-8 forgives only answers that small, which float flushes anyway.
      .tolerance = {.atol = 1e-8, .rtol = 1e-4},
      .min_bytes =
          [](const Params& p) { return 2.0 * static_cast<double>(rows_of(p) * cols_of(p)) * sizeof(float); },
      .flops = {},
      .make_inputs = make_inputs,
      .reference = reference,
      .diagnose = diagnose,
      .hints =
          {"Each row is independent: find its maximum m, then s = sum of exp(x - m) over the row, then "
           "y = exp(x - m) / s. Subtracting m changes nothing mathematically, but keeps exp from "
           "overflowing.",
           "One block per row (grid = rows). Each thread walks the row with a stride of blockDim.x and "
           "keeps its own maximum; a block reduction combines them into the row's max, which every "
           "thread then needs. Reduce the sum of exp(x - m) the same way, then write y in a last pass.",
           "Reduce within a warp with `for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync("
           "0xffffffff, v, o));`, let lane 0 of each warp write to `__shared__ float part[32]`, "
           "`__syncthreads()`, and let every thread reduce part[0 .. blockDim.x / 32) again; "
           "`__syncthreads()` before reusing part for the sum. Loop `for (int c = threadIdx.x; c < cols; "
           "c += blockDim.x)` so any cols works; start the max at -INFINITY and the sum at 0."},
      .line_budget = 40,
      .traffic_budget = "read x once, write y once",
  };
}

}  // namespace puzzle::puzzles
