// Puzzle 12: puzzle 9's attention forward as FlashAttention-3 computes it on Hopper (puzzle 11's tools).
#include "families/attention_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(attention::call_forward_launcher_16bit, flash_fwd_hopper,
                (const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
                 float* lse, int bh, int n_q, int n_k, int d, float scale, bool causal));

namespace puzzle::puzzles {

PuzzleSpec flash_forward_hopper() {
  using namespace attention;
  // Puzzle 9's contract, cases and shapes: the two compare directly.
  return forward_16bit_spec({
      .id = 12,
      .slug = "flash_forward_hopper",
      .title = "Flash attention forward on Hopper",
      .summary =
          "Puzzle 9's forward pass as FlashAttention-3 computes it: a producer warp loads Q, K and V with "
          "TMA into an mbarrier pipeline, a consumer warp group computes S = Q K^T and O += P V with "
          "wgmma, P staying in registers, the online softmax between the two.",
      .signature = kLauncherSignature,
      .hints =
          {"A block takes 64 query rows of one head: 160 threads, warps 0-3 the consumer warp group, warp 4 "
           "the producer. Tensor maps of three dimensions (d, n, bh), boxes of 64 columns x rows x 1 head: a "
           "tile past n arrives as zeros and never reads the next head; d = 128 is two boxes side by side. "
           "The "
           "producer loads Q once, then K and V tile after tile into the stages (full and empty barriers, as "
           "puzzle 11). Causal: the block's last row sees keys up to min(row0 + 64, n_q) - 1 + n_k - n_q; "
           "both roles stop after the key tile that holds it.",
           "S = Q K^T: both operands K-major in shared memory (d is K), as puzzle 11's a and b: d / 16 "
           "wgmma_ss<tile keys>, the k-slice kk at smem_descriptor(&tile[kk / 64][kk % 64]). The 64 x keys "
           "accumulator gives each thread two rows, r and r + 8: its keys / 4 values of a row, then "
           "__shfl_xor_sync with 1 and 2 for the row's max (the quad holds the row). Mask with -INFINITY "
           "only the tiles that need it (the last one, the diagonal ones).",
           "O += P V with A from registers: P's accumulators of two 8-key blocks 2kk and 2kk + 1, packed "
           "to bf16 pairs, are exactly the A fragment of the 16 keys kk (as mma.sync's in puzzle 9). V is "
           "[keys, d]: d is N and runs along the row, so B is MN-major: wgmma_rs sets the transpose bit, and "
           "smem_descriptor(&v[stage][0][16 kk * 64], bytes of one 64-column box) gives LBO (the next 64 "
           "columns of d) and SBO (8 keys, 1024 bytes). A consumer warp arrives on empty only after the "
           "wgmma_wait that covers its last read of the stage."},
      .line_budget = 300,
      .traffic_budget = "read q once, k and v once per block of query rows, write o and lse once",
  });
}

}  // namespace puzzle::puzzles
