// Puzzle 2: softmax of rows far longer than a block holds, tile by tile, in three passes.
#include "families/softmax_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(softmax::call_launcher, tiled_softmax, (const float* x, float* y, int rows, int cols));

namespace puzzle::puzzles {

PuzzleSpec tiled_softmax() {
  return softmax::spec({
      .id = 2,
      .slug = "tiled_softmax",
      .title = "Tiled softmax",
      .summary = "Softmax of rows up to a million columns: a row no longer fits in a block, so loop over "
                 "tiles, three times.",
      .signature = kLauncherSignature,
      .cases = softmax::long_row_cases(),
      .tolerance = softmax::kTolerance,
      .hints =
          {"A row of a million floats does not fit in a block's registers or shared memory, so process "
           "it in tiles (say blockDim.x * 4 columns at a time). The max and the sum must still cover the "
           "whole row: softmax of each tile on its own is wrong.",
           "Three loops over the tiles of the row, one block per row: the first finds the row's max "
           "(each thread keeps a running max over its columns, then one block reduction), the second sums "
           "exp(x - max) the same way, the third writes y = exp(x - max) / sum. That reads x three times.",
           "`float m = -INFINITY; for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, "
           "row[c]); m = block_max(m);` then `float s = 0; for (...) s += __expf(row[c] - m); s = "
           "block_sum(s);` then `for (...) out[c] = __expf(row[c] - m) / s;` where block_max/block_sum "
           "are puzzle 1's warp shuffle + shared memory reductions (with a __syncthreads() before "
           "reusing the shared array)."},
      .line_budget = 50,
      .traffic_budget = "read x 3 times, write y once",
      .diagnoses = {"tiles_normalized_separately"},
  });
}

}  // namespace puzzle::puzzles
