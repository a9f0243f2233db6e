// Puzzle 1: softmax of each row of a matrix, the first step towards attention.
#include "families/softmax_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(softmax::call_launcher, row_softmax, (const float* x, float* y, int rows, int cols));

namespace puzzle::puzzles {
namespace {

using softmax::of_kind;
using softmax::sized;
using softmax::timed;

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
      sized(1025, 3, "one row past 1024: a grid capped at 1024 blocks leaves the last row unwritten"),
      // On the simulator this took two thirds of a check's time and showed nothing that the cases above
      // do not (the case above keeps a grid of more than 1024 rows), so only the GPU runs it.
      gpu_only(sized(4096, 4096, "a large square")),
      of_kind("huge_logits", "huge_logits", 64, 1000,
              "logits up to 1e4: exp overflows unless the row's max is subtracted first"),
      of_kind("constant_rows", "constant_rows", 8, 3000,
              "every row one value (0, -3.5, 5000, ...): the answer is 1/cols everywhere"),
      of_kind("neg_inf", "neg_inf", 32, 999,
              "rows with -inf entries, some almost all -inf: exp(-inf) = 0, never NaN"),
      timed(8192, 8192, "bandwidth: 512 MiB moved"),
      timed(16384, 4096, "bandwidth with many shorter rows"),
  };
}

}  // namespace

PuzzleSpec row_softmax() {
  return softmax::spec({
      .id = 1,
      .slug = "row_softmax",
      .title = "Row softmax",
      .summary = "Softmax of every row of a matrix, stable for any input: the core of attention.",
      .signature = kLauncherSignature,
      .cases = cases(),
      .widest_row = 16384,
      .tolerance = softmax::kTolerance,
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
  });
}

}  // namespace puzzle::puzzles
