// Puzzle 9: FlashAttention-2's forward pass in bf16 on the tensor cores (puzzle 5's contract, puzzle 8's
// tools).
#include "families/attention_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(attention::call_forward_launcher_16bit, flash_fwd_bf16,
                (const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
                 float* lse, int bh, int n_q, int n_k, int d, float scale, bool causal));

namespace puzzle::puzzles {

PuzzleSpec flash_forward_bf16() {
  using namespace attention;
  return forward_16bit_spec({
      .id = 9,
      .slug = "flash_forward_bf16",
      .title = "Flash attention forward in bf16",
      .summary =
          "FlashAttention-2's forward pass on the tensor cores: S = Q K^T and O += P V with mma.sync, "
          "K and V through swizzled shared memory, the online softmax in registers with quad shuffles.",
      .signature = kLauncherSignature,
      .baseline_title = "cuBLAS bf16 standard attention",
      .hints =
          {"Puzzle 5's algorithm with puzzle 8's tools. A block of 4 warps takes 64 query rows of one head, "
           "each warp 16 rows: exactly the A operand of m16n8k16. Load the warp's Q rows into registers once "
           "(ldmatrix from shared memory) and keep them for the whole loop over key tiles of 64. S = Q K^T "
           "is "
           "16 x 64 per warp: d / 16 slices times 8 mma, K fragments by ldmatrix (no .trans: K's rows are "
           "the B operand's columns).",
           "Each lane holds rows g = lane / 4 and g + 8 of its warp's S; the 4 lanes of a quad hold a whole "
           "row between them. Row max and row sum: the lane's own values, then __shfl_xor_sync with 1 and 2. "
           "p = exp2(s * scale * log2(e) - m * scale * log2(e)). The S accumulator of two n8 tiles (16 keys) "
           "is exactly an A fragment for O += P V: pack (c0, c1), (c2, c3) of tile 2j and of tile 2j + 1 "
           "with __floats2bfloat162_rn into a0..a3. V's fragments need ldmatrix .trans: V is [keys, d] "
           "and P V contracts over keys.",
           "Masks: scores of keys past n_k, and above the causal diagonal (key j > i + n_k - n_q), are "
           "-INFINITY before the max; stop the key loop after the last tile the block's last row sees. Rows "
           "past n_q load zeros and store nothing. A row whose max is still -INFINITY at the end saw no key: "
           "o = 0, lse = -INFINITY. Stage K and V tiles with cp.async (zero-fill past n_k: the src-size "
           "operand `cp.async.cg.shared.global [%0], [%1], 16, %2;`), swizzled as in puzzle 8, two stages."},
      .line_budget = 200,
      .traffic_budget = "read q once, k and v once per block of query rows, write o and lse once",
  });
}

}  // namespace puzzle::puzzles
