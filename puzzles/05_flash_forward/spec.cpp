// Puzzle 5: the FlashAttention forward pass, online softmax applied to attention.
#include "families/attention_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(attention::call_forward_launcher, flash_fwd,
                (const float* q, const float* k, const float* v, float* o, float* lse, int bh, int n_q,
                 int n_k, int d, float scale, bool causal));

namespace puzzle::puzzles {

PuzzleSpec flash_forward() {
  using namespace attention;
  return {
      .id = 5,
      .slug = "flash_forward",
      .title = "Flash attention forward",
      .summary =
          "Attention, softmax(scale * Q K^T) V, and its logsumexp, one tile of keys at a time, never "
          "storing the n_q x n_k matrix of scores: online softmax with a weighted sum.",
      .signature = kLauncherSignature,
      .inputs = {query_buffer("q"), key_buffer("k"), key_buffer("v")},
      .outputs = {query_buffer("o"), row_buffer("lse")},
      .cases = forward_cases(),
      .sweep = bench_shapes(),
      .baseline_title = "cuBLAS standard attention",
      .tolerance = kTolerance,
      // Read q, k, v and write o, lse once each: what a kernel holding all of K and V on chip would move.
      .min_bytes =
          [](const Params& p) {
            const Shape s = shape_of(p);
            return static_cast<double>(s.bh * (2 * s.n_q * s.d + 2 * s.n_k * s.d + s.n_q)) * sizeof(float);
          },
      .flops = forward_flops,
      .make_inputs = [](const TestCase& test, uint64_t seed,
                        Buffers& inputs) { make_qkv(5, test, seed, inputs); },
      .judge = "attention_forward",
      .hints =
          {"Each query row is an online softmax whose sum carries a vector: keep the running max m of its "
           "scores s = scale * q . k_j, the running sum l of exp(s - m) and a running row O of "
           "exp(s - m) * v_j. When a tile of keys raises the max from m_old to m_new, multiply both l and O "
           "by exp(m_old - m_new) before adding the tile. Divide O by l once, at the end, and write "
           "lse = m + log(l). Causal: query i sees key j iff j <= i + n_k - n_q.",
           "Give a block 64 query rows of one head (grid: ceil(n_q / 64) x bh). Load its Q rows into shared "
           "memory once; then, for each tile of 64 keys, load the K and V tiles into shared memory, compute "
           "the 64 x 64 scores (-INFINITY for keys past n_k or above the causal diagonal), the tile's row "
           "max, "
           "p = exp(s - m_new), the rescale of l and O, and O += P V. A __syncthreads() before the next tile "
           "overwrites K and V. Causal: stop after the last key tile the block's last row sees. A row that "
           "sees no key writes o = 0 and lse = -INFINITY.",
           "The simplest correct kernel, one thread per query row: `float m = -INFINITY, l = 0, acc[D] = {}; "
           "for (int j = 0; j < seen; ++j) { float s = scale * dot(q_i, k_j); float m_new = fmaxf(m, s); "
           "float c = __expf(m - m_new), p = __expf(s - m_new); l = l * c + p; for (int x = 0; x < D; ++x) "
           "acc[x] = acc[x] * c + p * v_j[x]; m = m_new; }` with seen = causal ? min(n_k, i + n_k - n_q + 1) "
           ": "
           "n_k (m = -inf at first gives c = exp(-inf) = 0: no NaN, since s is finite); then o = acc / l and "
           "lse = m + logf(l), or 0 and -INFINITY when seen <= 0. Make it fast by sharing each K/V tile "
           "among 64 rows through shared memory, and by giving each thread a 4 x 4 block of scores."},
      .line_budget = 150,
      .traffic_budget = "read q once, k and v once per block of query rows, write o and lse once",
      .max_scratch_bytes = max_scratch_bytes,
      .scratch_budget = kScratchBudget,
  };
}

}  // namespace puzzle::puzzles
