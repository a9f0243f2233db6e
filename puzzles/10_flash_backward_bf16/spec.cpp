// Puzzle 10: FlashAttention-2's backward pass in bf16 on the tensor cores (puzzle 6's contract, puzzle 9's
// tools).
#include "families/attention_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(attention::call_backward_launcher_16bit, flash_bwd_bf16,
                (const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                 const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                 __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, int d, float scale,
                 bool causal));

namespace puzzle::puzzles {

PuzzleSpec flash_backward_bf16() {
  using namespace attention;
  return {
      .id = 10,
      .slug = "flash_backward_bf16",
      .title = "Flash attention backward in bf16",
      .summary =
          "FlashAttention-2's backward pass on the tensor cores: the five products S, dP, dV, dK and dQ "
          "with mma.sync, dK and dV in registers over the query tiles, dQ added up in fp32.",
      .signature = kLauncherSignature,
      .inputs = {query_buffer("q", Dtype::bf16), key_buffer("k", Dtype::bf16), key_buffer("v", Dtype::bf16),
                 query_buffer("o", Dtype::bf16), row_buffer("lse"), query_buffer("dout", Dtype::bf16)},
      .outputs = {query_buffer("dq", Dtype::bf16), key_buffer("dk", Dtype::bf16),
                  key_buffer("dv", Dtype::bf16)},
      .cases = cases_16bit(),
      .sweep = bench_shapes(),
      .baseline_title = "cuBLAS bf16 standard attention",
      // Puzzle 6's tolerance, plus the judge's allowance for bf16 rounding of P, dS and the gradients
      // (harness/judge/families/attention_backward_allowance.cpp).
      .tolerance = {.atol = 1e-5, .rtol = 1e-4},
      // Read q, k, v, o, dout (bf16) and lse (fp32) once, write dq, dk and dv (bf16) once.
      .min_bytes =
          [](const Params& p) {
            const Shape s = shape_of(p);
            return static_cast<double>(s.bh * (4 * s.n_q * s.d + 4 * s.n_k * s.d)) * 2 +
                   static_cast<double>(s.bh * s.n_q) * 4;
          },
      // FlashAttention's convention, as puzzle 6: 2.5 times the forward's FLOPs.
      .flops = [](const Params& p) { return 2.5 * forward_flops(p); },
      .make_inputs = [](const TestCase& test, uint64_t seed,
                        Buffers& inputs) { make_backward_inputs(10, Dtype::bf16, test, seed, inputs); },
      .judge = "attention_backward_16bit",
      .hints =
          {"Puzzle 6's plan with puzzle 9's tools. Launcher: zero an fp32 dq accumulator (bh * n_q * d "
           "floats, cudaMalloc), a small kernel for D_i = sum_c dout_ic * o_ic (fp32, bh * n_q floats), the "
           "main kernel, then a kernel that writes dq = bf16(scale * accumulator). Main kernel: one block of "
           "4 warps per (64 keys, head), each warp 16 keys: its dK and dV (16 x d, fp32) stay in mma "
           "accumulators for the whole loop over query tiles.",
           "Work with the transposes, so that every product has the warp's 16 keys as its rows: S^T = K Q^T "
           "and dP^T = V dO^T (B operands Q and dO by ldmatrix, no .trans, as K in puzzle 9); P^T = "
           "exp2(S^T * scale * log2(e) - lse * log2(e)), where each lane's two columns are two queries, so "
           "it "
           "needs their lse and D; dS^T = P^T * (dP^T - D). Then dV += P^T dO and dK += dS^T Q take P^T and "
           "dS^T straight from registers as A fragments (puzzle 9's packing), with dO and Q by ldmatrix "
           ".trans, as V in puzzle 9.",
           "dQ needs dS (queries x keys) against K: write dS^T to shared memory as bf16, __syncthreads, and "
           "let each warp take 16 queries: A = dS by ldmatrix .trans of dS^T, B = K by ldmatrix .trans, "
           "then atomicAdd the fp32 results into the accumulator (blocks of other key tiles add to the same "
           "rows). Masks: P = 0 for a key past n_k, a query past n_q, above the causal diagonal (key j > i + "
           "n_k - n_q) or a row with lse = -INFINITY (it saw no key: exp2 of +inf is not 0). Causal: start "
           "at the first query tile that sees the block's first key."},
      .line_budget = 280,
      .traffic_budget =
          "read k, v once; q, dout, lse, D once per key tile; write dk, dv once; add into dq once per key "
          "tile",
      .max_scratch_bytes = max_scratch_bytes,
      .scratch_budget = kScratchBudget,
  };
}

}  // namespace puzzle::puzzles
