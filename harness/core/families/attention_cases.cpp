// The case list of the attention puzzles (issue 5), shared by puzzles 5 and 6.
#include <algorithm>

#include "families/attention_family.hpp"

namespace puzzle::puzzles::attention {
namespace {

struct Sizes {
  int64_t bh, n_q, n_k, d;
  const char* about;
};

// Shapes that straddle the usual tile sizes (16, 32, 64, 128 rows or keys), each run causal and not.
constexpr Sizes kShapes[] = {
    {1, 1, 1, 16, "one query, one key: o is that key's v row"},
    {1, 17, 17, 32, "17 rows: most of the first tile of queries and of keys is past the end"},
    {2, 127, 129, 64, "one query short of 128, one key past 128: a tail of one key"},
    {1, 64, 300, 128, "more keys than queries (causal: every query sees at least 237 keys)"},
    {2, 300, 64, 64, "more queries than keys (causal: queries 0..235 see no key: o = 0, lse = -inf)"},
};

// kShapes, causal and not, with d raised to at least `min_d` (the tensor-core puzzles' tiles want 64).
void add_shapes(std::vector<TestCase>& cases, int64_t min_d) {
  for (const Sizes& s : kShapes) {
    for (const bool causal : {false, true})
      cases.push_back(sized(s.bh, s.n_q, s.n_k, std::max(s.d, min_d), causal, s.about));
  }
}

// Larger shapes, too slow for the simulator, causal and not.
void add_gpu_only(std::vector<TestCase>& cases) {
  for (const bool causal : {false, true}) {
    cases.push_back(
        gpu_only(sized(3, 1000, 1000, 64, causal, "1000 rows and keys: no tile size divides them")));
    cases.push_back(gpu_only(sized(4, 1024, 1024, 128, causal, "whole tiles, d = 128")));
  }
}

}  // namespace

std::vector<TestCase> cases() {
  std::vector<TestCase> cases;
  add_shapes(cases, 16);
  for (TestCase& test : std::vector<TestCase>{
           of_kind("large_logits", "large_logits",
                   sized(2, 150, 250, 32, false,
                         "scores in the hundreds: exp overflows float unless a running max is subtracted")),
           of_kind("large_logits", "large_logits_causal",
                   sized(2, 250, 150, 32, true, "large scores, causal, with empty rows (n_q > n_k)")),
           with_scale_milli(300, "scale_0.3",
                            sized(2, 100, 140, 32, false,
                                  "scale 0.3 instead of 1/sqrt(32) = 0.177: the scale is an argument")),
           sized(1, 640, 640, 16, true,
                 "a long causal square: many key tiles skipped or masked, and an n_q x n_k scratch buffer "
                 "is 4x what the scratch rule allows"),
       }) {
    cases.push_back(std::move(test));
  }
  add_gpu_only(cases);
  // TFLOP/s of `check` on a GPU: long enough sequences to fill the GPU, small enough that the parent's
  // float64 reference takes a few seconds. `puzzle bench 5` times the benchmark shapes.
  cases.push_back(timed(sized(8, 2048, 2048, 64, false, "TFLOP/s, d = 64")));
  cases.push_back(timed(sized(4, 2048, 2048, 128, false, "TFLOP/s, d = 128")));
  cases.push_back(timed(sized(8, 2048, 2048, 64, true, "TFLOP/s, causal: half the work")));
  return cases;
}

std::vector<TestCase> forward_cases() {
  std::vector<TestCase> all = cases();
  // Puzzle 6 has no running max to get wrong, and its gradients' tolerance was measured without this.
  const auto first_gpu_only = std::find_if(all.begin(), all.end(), [](const TestCase& t) { return !t.sim; });
  all.insert(first_gpu_only,  // with the other simulator cases
             of_kind("negative_logits", "negative_logits",
                     sized(2, 150, 250, 32, false,
                           "every score near -200: exp(s) underflows, so the running max must start at "
                           "-inf, not 0")));
  return all;
}

std::vector<TestCase> cases_16bit() {
  std::vector<TestCase> cases;
  add_shapes(cases, 64);
  for (TestCase& test : std::vector<TestCase>{
           of_kind("large_logits", "large_logits",
                   sized(2, 150, 250, 64, false,
                         "scores in the hundreds: exp overflows float unless a running max is subtracted")),
           of_kind("negative_logits", "negative_logits",
                   sized(2, 150, 250, 64, false,
                         "every score near -200: the running max must start at -inf, not 0")),
           with_scale_milli(300, "scale_0.3",
                            sized(2, 100, 140, 128, false, "scale 0.3: the scale is an argument")),
           sized(1, 640, 640, 64, true, "a long causal square: key tiles skipped, diagonal tiles masked"),
       }) {
    cases.push_back(std::move(test));
  }
  add_gpu_only(cases);
  // As puzzle 5's: the parent's float64 reference (and the allowance, another pass) takes seconds.
  cases.push_back(timed(sized(8, 2048, 2048, 64, false, "TFLOP/s, d = 64")));
  cases.push_back(timed(sized(4, 2048, 2048, 128, false, "TFLOP/s, d = 128")));
  cases.push_back(timed(sized(4, 2048, 2048, 128, true, "TFLOP/s, causal: half the work")));
  return cases;
}

}  // namespace puzzle::puzzles::attention
