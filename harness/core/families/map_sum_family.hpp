// The warm-up's family (puzzle 0): a map with a bounds guard, then a block-wide sum. x and y hold n floats,
// y = exp(x) elementwise, and sums[b] is the sum of y over the b-th chunk of kChunk elements (the last
// one may be shorter): what one block of kChunk threads computes. Its buffers, cases, inputs and launcher
// caller; its reference and diagnoses are the judge's (harness/judge/families/map_sum_judge.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "case_builders.hpp"
#include "launcher.hpp"
#include "registry.hpp"

namespace puzzle::puzzles::map_sum {

inline constexpr int64_t kChunk = 256;  // elements per entry of sums: one block's worth

int64_t n_of(const Params& p);
int64_t chunks_of(const Params& p);  // ceil(n / kChunk): the length of sums

// A case of n random values, named "N".
TestCase sized(int64_t n, std::string about);

// What the puzzle says for itself; spec() adds the buffers, inputs, bandwidth and the judge "map_sum".
struct Own {
  int id;
  std::string slug, title, summary;
  std::string signature;  // kLauncherSignature: void SLUG(const float* x, float* y, float* sums, int n)
  std::vector<TestCase> cases;
  std::array<std::string, 3> hints;
  int line_budget;
  std::string traffic_budget;
};
PuzzleSpec spec(Own own);

// The family's launcher caller (PUZZLE_LAUNCHER): x, y, sums, n.
inline void call_launcher(void (*launcher)(const float* x, float* y, float* sums, int n),
                          const LaunchArgs& args) {
  launcher(args.input<float>(0), args.output<float>(0), args.output<float>(1), args.size("n"));
}

}  // namespace puzzle::puzzles::map_sum
