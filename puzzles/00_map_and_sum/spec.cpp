// Puzzle 0: the warm-up. A map with a bounds guard (y = exp(x)), then a block-wide sum of each chunk of
// 256: the two moves every later puzzle is built from.
#include "families/map_sum_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(map_sum::call_launcher, map_and_sum, (const float* x, float* y, float* sums, int n));

namespace puzzle::puzzles {
namespace {

using map_sum::sized;

std::vector<TestCase> cases() {
  return {
      sized(1, "a single element: one block, 255 of its threads past the end"),
      sized(255, "one short of a block: thread 255 must neither read nor write"),
      sized(256, "exactly one block"),
      sized(257, "one past a block: a second block with one element, and a chunk of one"),
      sized(1000, "not a multiple of 256: the last chunk has 232 elements"),
      sized(4097, "sixteen full blocks and one element"),
      sized(65536, "256 blocks"),
      sized(100003, "a prime: every block but the last is full"),
      gpu_only(sized(16777217, "16M + 1: a large grid")),
      timed(sized(67108864, "bandwidth: 512 MiB moved")),
  };
}

}  // namespace

PuzzleSpec map_and_sum() {
  return map_sum::spec({
      .id = 0,
      .slug = "map_and_sum",
      .title = "Warm-up: a map and a block sum",
      .summary =
          "y = exp(x) with one thread per element and a bounds guard, and the sum of each chunk of 256 "
          "by one block: threads, blocks, shared memory and __syncthreads().",
      .signature = kLauncherSignature,
      .cases = cases(),
      .hints =
          {"One thread per element: i = blockIdx.x * blockDim.x + threadIdx.x. With blocks of 256 threads "
           "the grid needs (n + 255) / 256 blocks, rounded up, so the last block has threads past the end: "
           "`if (i < n) y[i] = expf(x[i]);`. Block b then holds exactly chunk b of the sums.",
           "The block's sum: each thread puts its value (0 past the end) in `__shared__ float part[256]`, "
           "then `__syncthreads()` so that all 256 are there before anyone reads them. Then halve: for "
           "stride 128, 64, ..., 1, threads t < stride add part[t + stride] into part[t], with a "
           "`__syncthreads()` after each step. part[0] is the sum.",
           "`__syncthreads()` must be reached by every thread of the block: guard the load and the store "
           "with `i < n`, never `return` early. Thread 0 writes `sums[blockIdx.x] = part[0];`. Launch "
           "`map_and_sum_kernel<<<(n + 255) / 256, 256>>>(x, y, sums, n);`."},
      .line_budget = 30,
      .traffic_budget = "read x once, write y and sums once",
  });
}

}  // namespace puzzle::puzzles
