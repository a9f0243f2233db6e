// Puzzle 6: the FlashAttention backward pass: dq, dk, dv from q, k, v, o, lse and dout, recomputing P
// from lse tile by tile instead of storing it.
#include "families/attention_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(attention::call_backward_launcher, flash_bwd,
                (const float* q, const float* k, const float* v, const float* o, const float* lse,
                 const float* dout, float* dq, float* dk, float* dv, int bh, int n_q, int n_k, int d,
                 float scale, bool causal));

namespace puzzle::puzzles {
namespace {

using namespace attention;

// One tolerance for dq, dk and dv, puzzle 5's. A right float32 kernel differs from the float64 reference
// by its own rounding: each score (a d-term dot product), exp() of scale * s - lse, dP, the sums over up
// to 2048 queries (dk, dv) and over the tiles of keys in any order (dq, by atomics). Measured on every
// case with a float32 model of the solution's arithmetic (tests/harness/test_flash_backward.cpp, its
// skipped test prints the figures): at rtol 1e-4 the worst case needs atol 1.8e-6 (large_logits_causal,
// with dout scaled by 2^-8 as make_backward_inputs says; 1.3e-6 for 3x1000x1000x64_causal), so atol 1e-5
// leaves a margin of 5. The wrong kernels miss by far more: a P off by a row factor, a missing D or scale, a
// moved diagonal or a lost tile of keys change gradients by percents to orders of magnitude.
constexpr Tolerance kGradientTolerance = {.atol = 1e-5, .rtol = 1e-4};

}  // namespace

PuzzleSpec flash_backward() {
  return {
      .id = 6,
      .slug = "flash_backward",
      .title = "Flash attention backward",
      .summary =
          "dQ, dK and dV of attention from Q, K, V, O, lse and dO, recomputing each tile of P from lse "
          "instead of storing the n_q x n_k matrix.",
      .signature = kLauncherSignature,
      .inputs = {query_buffer("q"), key_buffer("k"), key_buffer("v"), query_buffer("o"), row_buffer("lse"),
                 query_buffer("dout")},
      .outputs = {query_buffer("dq"), key_buffer("dk"), key_buffer("dv")},
      .cases = cases(),  // puzzle 5's: its big cases are already GPU-only
      .sweep = bench_shapes(),
      .baseline_title = "cuBLAS standard attention",
      .tolerance = kGradientTolerance,
      // Read q, k, v, o, dout and lse once, write dq, dk and dv once.
      .min_bytes =
          [](const Params& p) {
            const Shape s = shape_of(p);
            return static_cast<double>(s.bh * (4 * s.n_q * s.d + 4 * s.n_k * s.d + s.n_q)) * sizeof(float);
          },
      // FlashAttention's convention: the backward pass is 2.5 times the forward's FLOPs (5 matrix products
      // of the forward's size where the forward has 2).
      .flops = [](const Params& p) { return 2.5 * forward_flops(p); },
      .make_inputs = [](const TestCase& test, uint64_t seed,
                        Buffers& inputs) { make_backward_inputs(6, Dtype::f32, test, seed, inputs); },
      .judge = "attention_backward",
      .hints =
          {"Start from the math, one query row i at a time: p_j = exp(scale * q_i . k_j - lse_i) over the "
           "keys "
           "it sees, dp_j = dout_i . v_j, D_i = dout_i . o_i (equal to sum_j p_j dp_j), ds_j = p_j (dp_j - "
           "D_i); "
           "then dv_j += p_j dout_i, dk_j += scale ds_j q_i, dq_i += scale ds_j k_j. dk and dv are sums over "
           "queries, dq a sum over keys: give each key (or tile of keys) one owner, and let dq be added into "
           "from several places with atomicAdd, after zeroing it.",
           "Plan of FlashAttention-2: (1) cudaMemsetAsync(dq, 0, ...); (2) a small kernel writes D_i = "
           "rowsum(dout * o) into a scratch of bh * n_q floats (cudaMalloc, cudaFree at the end); (3) one "
           "block "
           "per (tile of 64 keys, head) loads K_j, V_j into shared memory, keeps dK_j, dV_j in registers, "
           "and "
           "for each tile of queries loads Q_i, dO_i, lse_i, D_i, computes S and dP, then P = exp(scale S - "
           "lse) "
           "(0 where masked) and dS = P * (dP - D) into shared memory, then dV_j += P^T dO_i, dK_j += scale "
           "dS^T "
           "Q_i, and atomicAdd(dq, scale dS K_j). Causal: start at the first query tile that sees key k0, "
           "i >= k0 - (n_k - n_q).",
           "The simplest correct kernel, one thread per key j (grid: ceil(n_k / 64) x bh, 64 threads): "
           "`float "
           "dk[128] = {}, dv[128] = {}; for (int i = 0; i < n_q; ++i) { if (causal && j > i + n_k - n_q) "
           "continue; float p = __expf(scale * dot(q_i, k_j) - lse[i]); float ds = p * (dot(dout_i, v_j) - "
           "dot(dout_i, o_i)); for (int c = 0; c < d; ++c) { dv[c] += p * dout_i[c]; dk[c] += scale * ds * "
           "q_i[c]; atomicAdd(&dq_i[c], scale * ds * k_j[c]); } }` then store dk and dv. It is slow: make it "
           "fast by sharing K, V, Q and dO tiles through shared memory and giving each thread a 4 x 4 "
           "block of S."},
      .line_budget = 220,
      .traffic_budget =
          "read k, v once; q, dout, lse once per key tile; write dk, dv once; add into dq once per key tile",
      .max_scratch_bytes = max_scratch_bytes,
      .scratch_budget = kScratchBudget,
  };
}

}  // namespace puzzle::puzzles
