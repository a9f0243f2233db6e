// What every softmax puzzle (1-4) shares: the launcher's buffers (x, y of rows x cols), the input kinds,
// the double-precision reference and the diagnoses of a wrong row. Each puzzle keeps its own id, names,
// cases, hints, budgets and the diagnoses only its algorithm can show.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "registry.hpp"
#include "verdict.hpp"

namespace puzzle::puzzles::softmax {

inline constexpr int64_t kMaxCols = 1'048'576;

// One tolerance for every softmax puzzle. Puzzle 1 (rows up to 16384): a right kernel's error comes from
// the sum (~1e-6 relative for a tree reduction, a few 1e-5 for one long sequential sum) and from __expf
// (a few ulp, ~2e-6 relative at |x - max| ~ 30); a chunk of the row left out of the sum, or counted
// twice, shifts the whole row by that chunk's share (one ordinary element of a 1000-wide row holds ~1e-4),
// and a wrong max gives inf/NaN on huge_logits. atol 1e-8 forgives only answers that small, which float
// flushes anyway. Puzzles 2-4, rows up to 1M columns: a right kernel splits a row among
// at least a warp's 32 lanes (a block for puzzles 2-3), each summing its columns in order (up to
// 1M / 32 = 32768 terms), then a tree across lanes. The terms are positive, so each addition's rounding
// is relative to a partial sum that is a fraction of the row's sum: measured in float32 on the CPU, a
// warp per row is off by 3e-5 at 1M columns, 128 threads per row by 8e-6, __expf included; online
// rescales add one rounding per change of the max (~ln n). 1e-4 holds those, and tests/harness checks
// three-pass, online and blocked float32 implementations on every simulator case. One thread summing a
// whole row of 1M is off by ~2e-3 (terms below half an ulp of the partial sum vanish): passing it would
// need a tolerance that also passes a 1024-column tile left out of a 262144-column row, so it fails; a
// thread per row that long is also hundreds of times too slow. Wrong kernels miss by far more: a tile
// normalized alone is off by its share of the row, a missed rescale by exp(m_new - m_old).
inline constexpr Tolerance kTolerance = {.atol = 1e-8, .rtol = 1e-4};

int64_t rows_of(const Params& p);
int64_t cols_of(const Params& p);

// A random case named "ROWSxCOLS".
TestCase sized(int64_t rows, int64_t cols, std::string about);
// A case of another input kind: "huge_logits", "constant_rows", "neg_inf" or "neg_inf_tiles".
TestCase of_kind(std::string kind, std::string name, int64_t rows, int64_t cols, std::string about);
// A bandwidth case, timed on a GPU and too large for the simulator.
TestCase timed(int64_t rows, int64_t cols, std::string about);
// Too large for the simulator, yet judged on a GPU.
TestCase gpu_only(TestCase test);

// `puzzle bench`: square, wide, many short rows, few long rows; those with cols <= widest_row.
std::vector<TestCase> bench_shapes(int64_t widest_row);

// Rows far longer than a block holds, and the tails around typical tile sizes (all on the simulator).
std::vector<TestCase> long_rows();
// Puzzles 2 and 3: long_rows() with the tiny, named and bandwidth cases.
std::vector<TestCase> long_row_cases();

// What one row of the output shows, next to its input and the reference.
struct RowFacts {
  int64_t wrong = 0, nan = 0, inf = 0, unwritten = 0;
  int64_t significant = 0, significant_wrong = 0;  // elements whose answer is above atol
  bool all_zero = true;
  double sum = 0, max_out = -INFINITY;  // over the written, finite outputs
  float max_in = -INFINITY;
  bool has_neg_inf = false;
  // y / expected over the clearly checkable elements, when every one of them is written and finite.
  double low_ratio = INFINITY, high_ratio = -INFINITY;
  double ref_max = 0;  // the row's max input and sum of exp(x - max), in double (rows_mixed needs them)
  double ref_sum = 0;

  bool finite_and_written() const { return nan + inf + unwritten == 0; }
  // The whole row is the right answer times one factor != 1 (a wrong normalizer).
  bool uniformly_scaled() const;
  double factor() const { return (low_ratio + high_ratio) / 2; }
};

std::vector<RowFacts> row_facts(const CaseEvidence& e);

// The diagnoses a puzzle adds on top of the family's.
using OwnDiagnoses = void (*)(const CaseEvidence&, const std::vector<RowFacts>&, std::vector<Diagnosis>&);

// Puzzle 2-3: each tile of a row normalized on its own, so a row sums to its number of tiles.
void tiles_normalized_separately(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out);
// Puzzle 3: the running sum not rescaled when the running max grew.
void online_missing_rescale(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out);
// Puzzle 4: the max or sum of one row used for a neighbouring row.
void rows_mixed(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out);

// The family's diagnoses of a failed case, then the puzzle's own.
void family_diagnoses(const CaseEvidence& e, OwnDiagnoses own, std::vector<Diagnosis>& out);

// The parts of a softmax puzzle's spec that differ between puzzles.
struct Own {
  int id;
  std::string slug, title, summary, file, docs;
  std::vector<TestCase> cases;
  int64_t widest_row = kMaxCols;  // the longest row the puzzle asks for: bench shapes stop there
  Tolerance tolerance;
  std::array<std::string, 3> hints;
  int line_budget;
  std::string traffic_budget;
  OwnDiagnoses diagnose = nullptr;
};

// The spec of a softmax puzzle: `void SLUG(const float* x, float* y, int rows, int cols)`.
PuzzleSpec spec(Own own);

}  // namespace puzzle::puzzles::softmax
