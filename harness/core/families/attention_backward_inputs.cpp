// The backward puzzles' inputs (6: fp32, 10: bf16; the harness rounds each 16-bit buffer once after this).
#include <algorithm>
#include <cmath>

#include "dtype.hpp"
#include "families/attention_family.hpp"
#include "random_fill.hpp"

namespace puzzle::puzzles::attention {
namespace {

enum Input { kQ, kK, kV, kO, kLse, kDout };

// Gradients are linear in dout. With large logits (scores near 100) a float32 kernel's scores are off by
// ~1e-5, so its P by ~1e-5 relative: measured, its gradients then need atol 4.5e-4 at rtol 1e-4 where
// every other case needs 1.3e-6 or less. Scaling dout by 2^-8 (exact) scales the gradients and those
// errors alike, to 1.8e-6: one tolerance then serves every case (puzzle 6's kGradientTolerance).
double dout_sigma(const TestCase& test) {
  return test.input_kind == "large_logits" ? 1.0 / 256 : 1.0;
}

// Timing only (`puzzle bench`): the float64 forward would take hours at the bench shapes, and timing does
// not depend on the values, only on their being realistic: o ~ N(0, 1/4), lse = log(visible keys) + 1/2,
// what random q, k, v give.
void bench_forward(int puzzle_id, const Shape& shape, uint64_t seed, std::vector<double>& o,
                   std::vector<double>& lse) {
  random_fill(Rng::for_buffer(seed, puzzle_id, "bench_forward", kO), o,
              [](Rng& block) { return 0.5 * block.normal(); });
  for (int64_t row = 0; row < static_cast<int64_t>(lse.size()); ++row) {
    const int64_t keys = shape.visible_keys(row % shape.n_q);
    lse[row] = keys == 0 ? -INFINITY : std::log(static_cast<double>(keys)) + 0.5;
  }
}

}  // namespace

void make_backward_inputs(int puzzle_id, Dtype dtype, const TestCase& test, uint64_t seed, Buffers& in) {
  make_qkv(puzzle_id, test, seed, in);
  // o and lse must be those of the q, k, v the kernel reads: rounded first (the harness rounds 16-bit
  // buffers after make_inputs, again, which changes nothing). With scores in the hundreds, lse from the
  // unrounded inputs would be off by tenths.
  for (const int b : {kQ, kK, kV}) round_all(dtype, in[b]);
  const Shape shape = shape_of(test.params);
  std::vector<double> o(in[kO].size()), lse(in[kLse].size());
  if (test.input_kind == kBenchInputs) {
    bench_forward(puzzle_id, shape, seed, o, lse);
  } else {
    forward(shape, in[kQ].data(), in[kK].data(), in[kV].data(), o.data(), lse.data());
  }
  std::copy(o.begin(), o.end(), in[kO].begin());  // to float
  std::copy(lse.begin(), lse.end(), in[kLse].begin());
  const double sigma = dout_sigma(test);
  random_fill(Rng::for_buffer(seed, puzzle_id, test.name, kDout), in[kDout],
              [&](Rng& block) { return static_cast<float>(sigma * block.normal()); });
}

}  // namespace puzzle::puzzles::attention
