// Puzzle 3: softmax of long rows with the max and the sum found in one pass (online softmax).
#include "families/softmax_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(softmax::call_launcher, online_softmax, (const float* x, float* y, int rows, int cols));

namespace puzzle::puzzles {

PuzzleSpec online_softmax() {
  return softmax::spec({
      .id = 3,
      .slug = "online_softmax",
      .title = "Online softmax",
      .summary = "Softmax of rows up to a million columns, reading x only twice: a running max and a sum "
                 "rescaled whenever the max grows.",
      .signature = kLauncherSignature,
      .cases = softmax::long_row_cases(),
      .tolerance = softmax::kTolerance,
      .hints =
          {"Keep a running max m and a running sum s of exp(x - m). When a new x raises the max, every "
           "term already in s was computed against the old max and is too large by exp(m_new - m_old): "
           "rescale s before adding. One pass gives the row's (m, s); a second writes y.",
           "Each thread walks its columns with `m_new = fmaxf(m, x); s = s * exp(m - m_new) + exp(x - "
           "m_new); m = m_new;`. Then combine the threads' pairs: m = max(m_a, m_b), s = s_a * exp(m_a - "
           "m) + s_b * exp(m_b - m), first across a warp with shuffles, then across warps in shared "
           "memory. A part of the row that is all -inf has m = -inf: exp(-inf - -inf) is NaN.",
           "`float m = -INFINITY, s = 0; for (int c = threadIdx.x; c < cols; c += blockDim.x) { float x = "
           "row[c]; if (x > m) { s *= __expf(m - x); m = x; } if (m != -INFINITY) s += __expf(x - m); }` "
           "(while m is -inf, every x so far was -inf and adds nothing, and exp(-inf - -inf) is NaN); "
           "combine with "
           "`float mo = __shfl_xor_sync(~0u, m, o), so = __shfl_xor_sync(~0u, s, o); float mn = fmaxf(m, "
           "mo); if (mn != -INFINITY) { s = s * __expf(m - mn) + so * __expf(mo - mn); m = mn; }`, then "
           "`out[c] = __expf(row[c] - m) / s`."},
      .line_budget = 50,
      .traffic_budget = "read x twice, write y once",
      .diagnoses = {"tiles_normalized_separately", "online_missing_rescale"},
  });
}

}  // namespace puzzle::puzzles
