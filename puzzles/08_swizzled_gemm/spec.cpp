// Puzzle 8: the product of puzzle 7 at speed: tiles staged in XOR-swizzled shared memory by cp.async,
// fragments loaded with ldmatrix, double buffering. Zero bank conflicts, checked on the simulator.
#include "families/matmul_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(matmul::call_launcher, swizzled_gemm,
                (const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k));

namespace puzzle::puzzles {
namespace {

using matmul::sized;

std::vector<TestCase> cases() {
  return {
      sized(128, 128, 64, "one block tile, one step along k"),
      of_kind("integers", "integers_128x128x128",
              sized(128, 128, 128, "whole numbers: exact, so any misplaced element shows")),
      sized(128, 128, 512, "eight steps along k: the double buffer turns over"),
      sized(256, 384, 128, "several blocks each way"),
      sized(384, 128, 192, "three steps along k: an odd number of stages"),
      gpu_only(sized(1024, 1024, 1024, "a thousand-cubed product")),
      gpu_only(sized(512, 2048, 4096, "a long k, wide c")),
      timed(sized(2048, 2048, 1024, "TFLOP/s")),
  };
}

}  // namespace

PuzzleSpec swizzled_gemm() {
  return matmul::spec({
      .id = 8,
      .slug = "swizzled_gemm",
      .title = "Swizzled shared memory and ldmatrix",
      .summary = "Puzzle 7's product at speed: tiles of a and b staged in shared memory by cp.async, in an "
                 "XOR-swizzled layout that ldmatrix reads without bank conflicts, with the next tile's copy "
                 "overlapping this tile's mma.",
      .signature = kLauncherSignature,
      .cases = cases(),
      .hints =
          {"A block computes a 128 x 128 tile of c. For each step of 64 along k it needs a 128 x 64 tile of "
           "a "
           "and one of b in shared memory (16 KiB each). Each row of such a tile is 128 bytes: 8 chunks of "
           "16 "
           "bytes, one cp.async each. Put chunk j of row r at chunk j ^ (r % 8) of that row: the 8 rows one "
           "ldmatrix phase reads then lie in 8 different chunks, all 32 banks once.",
           "ldmatrix.x4 loads four 8 x 8 matrices: lane l gives the shared address of row l % 8 of matrix l "
           "/ 8 "
           "and gets back in register j the pair (row l / 4, columns 2 (l % 4), +1) of matrix j: exactly an "
           "mma fragment. For a's 16 x 16 block at (r0, k0): lane l points at row r0 + l % 16, column k0 + 8 "
           "(l / 16) (matrices: rows 0-7 k 0-7, rows 8-15 k 0-7, rows 0-7 k 8-15, rows 8-15 k 8-15 = "
           "a0..a3). "
           "For b, two 8-row blocks side by side: row n0 + (l / 16) * 8 + l % 8, column k0 + 8 ((l / 8) % 2) "
           "gives b0, b1 of two mma.",
           "Double buffering: two stages of (a tile, b tile), 64 KiB, so raise the limit with "
           "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes). Before the "
           "loop "
           "issue the copies of step 0 and commit. Each step s: issue step s + 1's copies into the other "
           "stage "
           "and commit, `cp.async.wait_group 1` (all but the newest group done), __syncthreads(), ldmatrix + "
           "mma over the 4 slices of 16, __syncthreads() before the stage is overwritten. 8 warps as 2 x 4, "
           "each 64 x 32 of c: 4 x 4 mma per slice of 16."},
      .line_budget = 150,
      .traffic_budget = "read a and b once per block tile of c that needs them, write c once",
      .max_bank_conflicts = [](const Params&) { return 0.0; },
      .bank_conflict_budget =
          "none: swizzle the shared tiles so that every ldmatrix phase (8 rows of 16 bytes) "
          "and every row of cp.async stores touches each of the 32 banks once",
  });
}

}  // namespace puzzle::puzzles
