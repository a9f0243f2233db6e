// What the attention puzzles (5 and 9: forward, 6 and 10: backward) share: a case's shape and scale, the
// causal rule, the case list, the buffer layouts, the inputs q, k, v, the double-precision forward reference,
// the FLOP count and the scratch-memory rule. Each puzzle keeps its own outputs, hints, budgets and
// diagnoses.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "case_builders.hpp"
#include "launcher.hpp"
#include "registry.hpp"

namespace puzzle::puzzles::attention {

// A case's sizes, from its params "bh", "n_q", "n_k", "d", "causal" (0/1) and, optionally,
// "scale_milli" (the scale times 1000; without it the scale is 1/sqrt(d)).
struct Shape {
  int64_t bh = 1, n_q = 1, n_k = 1, d = 16;
  bool causal = false;
  double scale = 0.25;
  // Causal attention is aligned bottom-right (FlashAttention-2): query i sees key j iff j <= i + diagonal,
  // with diagonal = n_k - n_q, so that the last query sees every key. Kept as a field so that a diagnosis
  // can build the shape a wrong mask would have (top-left: 0, off by one: +-1).
  int64_t diagonal = 0;

  bool sees(int64_t query, int64_t key) const { return !causal || key <= query + diagonal; }
  // Query `query` sees keys 0 .. visible_keys(query) - 1: n_k without causal; 0 for a row that sees none.
  int64_t visible_keys(int64_t query) const;
};

Shape shape_of(const Params& p);
double scale_of(const Params& p);  // the scale of the scores, scale * q . k

// One tolerance for o and lse (and for puzzle 6's gradients, if they fit; see attention_family.cpp).
extern const Tolerance kTolerance;

// Cases. Names are "BHxNQxNKxD", with "_causal" appended for causal ones.
TestCase sized(int64_t bh, int64_t n_q, int64_t n_k, int64_t d, bool causal, std::string about);
TestCase with_scale_milli(int64_t scale_milli, std::string name, TestCase test);  // a scale not 1/sqrt(d)
// The case list of issue 5 (tails around the tile sizes, n_q != n_k both ways, causal with empty rows,
// large logits, a non-default scale, d = 16..128), shared by puzzles 5 and 6.
std::vector<TestCase> cases();
// Puzzle 5's: cases() and a case of very negative scores, for a running max that starts at 0.
std::vector<TestCase> forward_cases();
// The tensor-core puzzles' (9, 10): the same kinds of case at d = 64 and 128, the sizes their mma tiles
// are written for, with tails in n_q and n_k.
std::vector<TestCase> cases_16bit();

// `puzzle bench`: FlashAttention's benchmark shapes ("d64_n4096", "d64_n4096_causal", ...): 16k tokens at
// hidden size 2048, seqlen 512 to 16k, d = 64 and 128, causal and not. Their input kind is kBenchInputs:
// values for timing only, drawn without the float64 reference (far too slow on a CPU at these sizes).
inline constexpr const char* kBenchInputs = "bench";
std::vector<TestCase> bench_shapes();

// Buffers, row-major and contiguous: [bh, n_q, d] (q, o, dout, dq), [bh, n_k, d] (k, v, dk, dv),
// [bh, n_q] (lse). locate() says "head 1, query 17, dim 3" / "head 1, key 4, dim 0" / "head 1, query 17".
// q, k, v, o and the gradients take the puzzle's dtype (fp32 for 5-6, bf16 for 9-10); lse is always fp32.
BufferSpec query_buffer(std::string name, Dtype dtype = Dtype::f32);
BufferSpec key_buffer(std::string name, Dtype dtype = Dtype::f32);
BufferSpec row_buffer(std::string name);

// Input kinds: "random" (q, k, v ~ N(0, 1): scores of standard deviation ~1 at scale 1/sqrt(d)) and
// "large_logits" (q scaled up: scores in the hundreds, so exp overflows float without a running max).
// Fills inputs[0..2] with q, k, v.
void make_qkv(int puzzle_id, const TestCase& test, uint64_t seed, Buffers& inputs);
// The backward puzzles' (6, 10) inputs q, k, v, o, lse, dout: q, k, v as make_qkv draws them; o and lse
// from the float64 forward reference of q, k, v rounded to `dtype` (timing-only stand-ins for
// kBenchInputs), so that a backward puzzle does not depend on the learner's forward; dout ~ N(0, 1),
// scaled by 2^-8 for large logits.
void make_backward_inputs(int puzzle_id, Dtype dtype, const TestCase& test, uint64_t seed, Buffers& inputs);

// The scores of one query row in double: s[j] = scale * q . k_j for the keys it sees, -inf for the others.
void scores(const Shape& shape, const float* q, const float* k, int64_t head, int64_t query, double* s);
// The same for the rows first_query .. first_query + rows - 1, row r at s + r * n_k, as one tile of products
// (double_products.hpp): each row of k is read once for them all. The references work on groups of
// kRowGroup query rows: a head's k and v are 1 MB at 2048 keys and d = 64, and read once per query row they
// made the references bound by memory, not arithmetic, on a 16-core host. A row's sums run in the same order
// as they would alone, so its results do not depend on its group.
inline constexpr int64_t kRowGroup = 16;
void scores_of_rows(const Shape& shape, const float* q, const float* k, int64_t head, int64_t first_query,
                    int64_t rows, double* s);
// The forward reference: o [bh, n_q, d] and lse [bh, n_q] (natural log). A row that sees no key gets
// o = 0 and lse = -inf.
void forward(const Shape& shape, const float* q, const float* k, const float* v, double* o, double* lse);

// FlashAttention's count for the forward pass, 4 * bh * n_q * n_k * d, halved for causal.
double forward_flops(const Params& p);

// Extra device memory a launcher may allocate: O(bh * (n_q + n_k) * d) with room for several such
// buffers (puzzle 6's dq accumulator, D, ...), never the n_q x n_k matrix S. With its rationale, for
// PuzzleSpec::max_scratch_bytes and PuzzleSpec::scratch_budget.
double max_scratch_bytes(const Params& p);
extern const char* const kScratchBudget;

// Puzzle 9's contract filled into `spec`, which names and teaches its puzzle: bf16 q, k and v in, bf16 o and
// fp32 lse out, puzzle 9's cases, bench shapes, inputs and judge. Puzzle 12 computes the same forward pass
// on Hopper's asynchronous path, so that the two compare case for case and shape for shape.
PuzzleSpec forward_16bit_spec(PuzzleSpec spec);

// The family's launcher callers (PUZZLE_LAUNCHER): the inputs, then the outputs, in the spec's order,
// then bh, n_q, n_k, d, scale and causal.
using ForwardLauncher = void (*)(const float* q, const float* k, const float* v, float* o, float* lse, int bh,
                                 int n_q, int n_k, int d, float scale, bool causal);
using BackwardLauncher = void (*)(const float* q, const float* k, const float* v, const float* o,
                                  const float* lse, const float* dout, float* dq, float* dk, float* dv,
                                  int bh, int n_q, int n_k, int d, float scale, bool causal);
void call_forward_launcher(ForwardLauncher launcher, const LaunchArgs& args);
// The same for 16-bit q, k, v and o (T: __nv_bfloat16 or __half), lse fp32.
template <class T>
void call_forward_launcher_16bit(void (*launcher)(const T* q, const T* k, const T* v, T* o, float* lse,
                                                  int bh, int n_q, int n_k, int d, float scale, bool causal),
                                 const LaunchArgs& args) {
  launcher(args.input<T>(0), args.input<T>(1), args.input<T>(2), args.output<T>(0), args.output<float>(1),
           args.size("bh"), args.size("n_q"), args.size("n_k"), args.size("d"),
           static_cast<float>(scale_of(args.params)), args.params.at("causal") != 0);
}
void call_backward_launcher(BackwardLauncher launcher, const LaunchArgs& args);
// The same for 16-bit q, k, v, o, dout and gradients, lse fp32.
template <class T>
void call_backward_launcher_16bit(void (*launcher)(const T* q, const T* k, const T* v, const T* o,
                                                   const float* lse, const T* dout, T* dq, T* dk, T* dv,
                                                   int bh, int n_q, int n_k, int d, float scale, bool causal),
                                  const LaunchArgs& args) {
  launcher(args.input<T>(0), args.input<T>(1), args.input<T>(2), args.input<T>(3), args.input<float>(4),
           args.input<T>(5), args.output<T>(0), args.output<T>(1), args.output<T>(2), args.size("bh"),
           args.size("n_q"), args.size("n_k"), args.size("d"), static_cast<float>(scale_of(args.params)),
           args.params.at("causal") != 0);
}

}  // namespace puzzle::puzzles::attention
