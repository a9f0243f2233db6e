// `puzzle bench 5|6`: the shapes of FlashAttention's own benchmark.
#include "families/attention_family.hpp"

namespace puzzle::puzzles::attention {

std::vector<TestCase> bench_shapes() {
  // 16k tokens in all at hidden size 2048: 32 heads of 64 or 16 heads of 128, batch = 16k / seqlen.
  constexpr int64_t kTokens = 16384, kHidden = 2048;
  std::vector<TestCase> shapes;
  for (const int64_t d : {64, 128}) {
    for (const bool causal : {false, true}) {
      for (int64_t n = 512; n <= kTokens; n *= 2) {
        TestCase shape = gpu_only(
            sized((kTokens / n) * (kHidden / d), n, n, d, causal,
                  "batch " + std::to_string(kTokens / n) + " x " + std::to_string(kHidden / d) + " heads"));
        shape.name = "d" + std::to_string(d) + "_n" + std::to_string(n) + (causal ? "_causal" : "");
        shape.input_kind = kBenchInputs;
        shape.perf = true;
        shapes.push_back(std::move(shape));
      }
    }
  }
  return shapes;
}

}  // namespace puzzle::puzzles::attention
