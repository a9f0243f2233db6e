// Puzzle 7: a warp of tensor cores. C = A B^T in bf16 with fp32 sums, one mma.sync m16n8k16 at a time.
#include "families/matmul_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(matmul::call_launcher, warp_mma,
                (const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k));

namespace puzzle::puzzles {
namespace {

using matmul::sized;

std::vector<TestCase> cases() {
  return {
      sized(16, 8, 16, "one mma: a 16 x 16 tile of a, a 16 x 8 tile of b^T"),
      of_kind("integers", "integers_16x8x16",
              sized(16, 8, 16,
                    "one mma on whole numbers: exact, so any "
                    "misplaced element shows")),
      sized(16, 8, 128, "one tile of c, eight mma along k"),
      sized(64, 64, 64, "whole tiles in both directions"),
      sized(17, 9, 16, "one row and one column past a tile: tails in m and n"),
      sized(1, 1, 16, "a single element of c"),
      sized(100, 70, 48, "no tile size divides m or n"),
      of_kind("integers", "integers_48x40x256", sized(48, 40, 256, "whole numbers, a longer k")),
      sized(33, 200, 32, "wide and short"),
      sized(128, 128, 256, "a block's worth of tiles"),
      sized(8, 24, 1024, "a long k: sums of 1024 products"),
      gpu_only(sized(1000, 1000, 512, "many blocks, tails everywhere")),
      timed(sized(2048, 2048, 1024, "TFLOP/s")),
  };
}

}  // namespace

PuzzleSpec warp_mma() {
  return matmul::spec({
      .id = 7,
      .slug = "warp_mma",
      .title = "A warp of tensor cores",
      .summary =
          "The score tile S = Q K^T as C = A B^T in bf16 with fp32 sums, on tensor cores: one warp-wide "
          "mma.sync m16n8k16 at a time, with each lane's share of A, B and C placed by hand.",
      .signature = kLauncherSignature,
      .cases = cases(),
      .hints =
          {"Give each warp one 16 x 8 tile of c. For each step of 16 along k, the warp's 32 lanes load their "
           "pieces of a's 16 x 16 slice (4 registers of two bf16 each) and b's 8 x 16 slice (2 registers), "
           "and one `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32` adds their product into four "
           "float accumulators per lane. Lane l's pieces: g = l / 4 (its row group), t = l % 4.",
           "a registers: a0 = a[g][2t, 2t+1], a1 = a[g+8][2t, 2t+1], a2 = a[g][2t+8, 2t+9], a3 = "
           "a[g+8][2t+8, "
           "2t+9] (rows of the tile, k offsets within the slice). b registers: b0 = b[g][2t, 2t+1], b1 = "
           "b[g][2t+8, 2t+9] (b's row g is column g of B^T). c: c0, c1 = c[g][2t, 2t+1], c2, c3 = c[g+8][2t, "
           "2t+1]. A register holds two bf16: the lower k in the low 16 bits (a __nv_bfloat162 {x, y}).",
           "`uint32_t pack(const __nv_bfloat16* p, bool ok) { __nv_bfloat162 v = ok ? __nv_bfloat162(p[0], "
           "p[1]) : __nv_bfloat162(0, 0); return *reinterpret_cast<uint32_t*>(&v); }` loads two neighbours "
           "(0 past the last row). Then `asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
           "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\" : \"+f\"(c[0]), \"+f\"(c[1]), "
           "\"+f\"(c[2]), "
           "\"+f\"(c[3]) : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1));` Store only "
           "rows < m and columns < n. Every lane of the warp must reach the mma, even one whose rows are "
           "past "
           "m: guard the loads and stores, never the mma."},
      .line_budget = 60,
      .traffic_budget = "read a and b from global memory once per tile of c that needs them, write c once",
  });
}

}  // namespace puzzle::puzzles
