// Puzzle 4: softmax of many short rows, several rows per block, and of long rows too.
#include "families/softmax_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(softmax::call_launcher, blocked_softmax, (const float* x, float* y, int rows, int cols));

namespace puzzle::puzzles {
namespace {

using softmax::of_kind;
using softmax::sized;
using softmax::timed;

std::vector<TestCase> cases() {
  std::vector<TestCase> cases = {
      sized(1, 1, "a single element: the answer is exactly 1"),
      sized(7, 17, "fewer rows than a block holds, rows shorter than a warp"),
      sized(999, 7, "rows not a multiple of any rows-per-block, 7 columns each"),
      sized(1001, 33, "one column past a warp, rows not a multiple of any rows-per-block"),
      sized(100000, 32, "many rows exactly one warp wide"),
      sized(65536, 100, "many short rows that are not a multiple of 32"),
      of_kind("huge_logits", "huge_logits", 4096, 40, "logits up to 1e4 in short rows"),
      of_kind("huge_logits", "huge_logits_long", 8, 65537, "logits up to 1e4 in rows of many tiles"),
      of_kind("constant_rows", "constant_rows", 1000, 30, "constant short rows: the answer is 1/cols"),
      of_kind("neg_inf", "neg_inf", 999, 41, "short rows with -inf entries, some almost all -inf"),
      of_kind("neg_inf_tiles", "neg_inf_tiles", 8, 100003,
              "long rows with whole tiles of -inf: max -inf there, and exp(-inf - -inf) is NaN"),
  };
  for (TestCase& test : softmax::long_rows()) cases.push_back(std::move(test));
  for (TestCase& test : std::vector<TestCase>{
           gpu_only(sized(4, softmax::kMaxCols, "the widest rows allowed: 2^20 columns")),
           timed(1000000, 32, "bandwidth: a million rows of 32 columns"),
           timed(65536, 128, "bandwidth: rows of 128 columns, 32 MiB moved"),
           timed(8192, 4096, "bandwidth: rows of 4096 columns, 256 MiB moved"),
       }) {
    cases.push_back(std::move(test));
  }
  return cases;
}

}  // namespace

PuzzleSpec blocked_softmax() {
  return softmax::spec({
      .id = 4,
      .slug = "blocked_softmax",
      .title = "2D-blocked softmax",
      .summary = "Softmax of millions of short rows, or of a few long ones: several rows per block, "
                 "reading x only twice.",
      .signature = kLauncherSignature,
      .cases = cases(),
      .tolerance = softmax::kTolerance,
      .hints =
          {"One block per row wastes a block on 32 columns. Give a block BLOCK_ROWS rows instead and each "
           "row a warp (or a group of threads); rows are independent, so their reductions need not "
           "share anything but the block.",
           "Row r = blockIdx.x * BLOCK_ROWS + threadIdx.x / 32 (return early, before any __syncthreads, "
           "if r >= rows); lane = threadIdx.x % 32 walks the row's columns with a stride of 32, keeping "
           "the online pair (m, s) of puzzle 3; combine the lanes' pairs with __shfl_xor_sync, so each "
           "row keeps its own max and sum in its warp's registers. A second loop writes y. Long rows "
           "work the same way, only more slowly per row.",
           "`int r = blockIdx.x * BLOCK_ROWS + threadIdx.x / 32, lane = threadIdx.x % 32; if (r >= rows) "
           "return; const float* row = x + (size_t)r * cols; float m = -INFINITY, s = 0; for (int c = lane; "
           "c < cols; c += 32) { float v = row[c]; if (v > m) { s *= __expf(m - v); m = v; } if (m != "
           "-INFINITY) s "
           "+= __expf(v - m); }` then the shuffle combine of puzzle 3 over offsets 16..1, and `for (int c = "
           "lane; c < "
           "cols; c += 32) y[(size_t)r * cols + c] = __expf(row[c] - m) / s;` with grid = (rows + "
           "BLOCK_ROWS - 1) / BLOCK_ROWS."},
      .line_budget = 60,
      .traffic_budget = "read x twice, write y once",
      .diagnoses = {"rows_mixed"},
  });
}

}  // namespace puzzle::puzzles
