// What every softmax puzzle (1-4) shares: the launcher's buffers (x, y of rows x cols) and its caller,
// the input kinds, the case builders. Each puzzle keeps its own id, names, cases, hints, budgets and the
// names of the diagnoses only its algorithm can show (their code, the reference's and the family's
// diagnoses are the judge's: harness/judge/families/softmax_diagnoses.hpp).
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "case_builders.hpp"
#include "launcher.hpp"
#include "registry.hpp"

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

// `puzzle bench`: square, wide, many short rows, few long rows; those with cols <= widest_row.
std::vector<TestCase> bench_shapes(int64_t widest_row);

// Rows far longer than a block holds, and the tails around typical tile sizes (all on the simulator).
std::vector<TestCase> long_rows();
// Puzzles 2 and 3: long_rows() with the tiny, named and bandwidth cases.
std::vector<TestCase> long_row_cases();

// The parts of a softmax puzzle's spec that differ between puzzles.
struct Own {
  int id;
  std::string slug, title, summary;
  std::string signature;  // kLauncherSignature: void SLUG(const float* x, float* y, int rows, int cols)
  std::vector<TestCase> cases;
  int64_t widest_row = kMaxCols;  // the longest row the puzzle asks for: bench shapes stop there
  Tolerance tolerance;
  std::array<std::string, 3> hints;
  int line_budget;
  std::string traffic_budget;
  std::vector<std::string> diagnoses;  // PuzzleSpec::diagnoses: the extras of judge "softmax"
};

// The spec of a softmax puzzle, judged by the family's judge "softmax".
PuzzleSpec spec(Own own);

// The family's launcher caller (PUZZLE_LAUNCHER): x, y, rows, cols.
inline void call_launcher(void (*launcher)(const float* x, float* y, int rows, int cols),
                          const LaunchArgs& args) {
  launcher(args.input<float>(0), args.output<float>(0), args.size("rows"), args.size("cols"));
}

}  // namespace puzzle::puzzles::softmax
