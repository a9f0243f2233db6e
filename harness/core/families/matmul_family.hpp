// What the tensor-core product puzzles (7: a warp of mma.sync, 8: swizzled shared memory and ldmatrix)
// share: C = A B^T with A [m, k] and B [n, k] bf16, row-major, and C [m, n] fp32 row-major: the score
// tile S = Q K^T of attention. Its shape, buffers, case builders, inputs, FLOPs and launcher caller.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "case_builders.hpp"
#include "launcher.hpp"
#include "registry.hpp"

namespace puzzle::puzzles::matmul {

struct Shape {
  int64_t m, n, k;
};
Shape shape_of(const Params& p);

// A case "MxNxK" of input kind "random" (a and b ~ N(0, 1), rounded to bf16).
TestCase sized(int64_t m, int64_t n, int64_t k, std::string about);

// `puzzle bench 7|8`: square products from 1024 to 8192, drawn without a reference (kind "bench").
std::vector<TestCase> bench_shapes();

// a [m, k] and b [n, k] (locate: "row 3, k 17"), c [m, n] ("row 3, col 5"), with their dtypes.
BufferSpec a_buffer();
BufferSpec b_buffer();
BufferSpec c_buffer();

// Input kinds: "random", "integers" (whole numbers in [-4, 4]: every product and sum is exact in fp32, so
// a right kernel matches the reference exactly and a wrong one cannot hide in rounding) and "bench".
void make_inputs(int puzzle_id, const TestCase& test, uint64_t seed, Buffers& inputs);

double flops(const Params& p);      // 2 m n k
double min_bytes(const Params& p);  // read a and b once (2 bytes each), write c once (4 bytes)

// What a product puzzle says for itself; spec() adds what the family shares (buffers, cases' sizes and
// inputs, the bench shapes, the cuBLAS baseline, FLOPs, the judge "matmul").
struct Own {
  int id;
  std::string slug, title, summary;
  std::string signature;  // kLauncherSignature
  std::vector<TestCase> cases;
  std::array<std::string, 3> hints;
  int line_budget;
  std::string traffic_budget;
  std::function<double(const Params&)> max_bank_conflicts = {};  // PuzzleSpec's: empty, no limit
  std::string bank_conflict_budget = {};
};
PuzzleSpec spec(Own own);

// The family's launcher caller (PUZZLE_LAUNCHER): a, b, c, m, n, k. A template, so that this header needs no
// definition of __nv_bfloat16.
template <class Bf16>
void call_launcher(void (*launcher)(const Bf16* a, const Bf16* b, float* c, int m, int n, int k),
                   const LaunchArgs& args) {
  launcher(args.input<Bf16>(0), args.input<Bf16>(1), args.output<float>(0), args.size("m"), args.size("n"),
           args.size("k"));
}

}  // namespace puzzle::puzzles::matmul
