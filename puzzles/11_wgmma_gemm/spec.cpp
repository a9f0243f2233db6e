// Puzzle 11: puzzle 8's product on Hopper's asynchronous path: TMA copies into an mbarrier pipeline, a
// producer warp and a consumer warp group, wgmma reading both operands from swizzled shared memory.
#include "families/matmul_family.hpp"

// The launcher the stub defines: written here only (harness/core/launcher.hpp).
PUZZLE_LAUNCHER(matmul::call_launcher, wgmma_gemm,
                (const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k));

namespace puzzle::puzzles {
namespace {

using matmul::sized;

std::vector<TestCase> cases() {
  return {
      sized(128, 128, 64, "one block tile, one step along k"),
      of_kind("integers", "integers_128x128x128",
              sized(128, 128, 128, "whole numbers: exact, so any misplaced element shows")),
      sized(128, 128, 512, "eight steps along k: every stage of the pipeline is used twice"),
      sized(128, 256, 1024, "sixteen steps: each barrier's phase turns over four times"),
      sized(256, 384, 128, "several blocks each way; n not a multiple of 256"),
      sized(384, 128, 192, "three steps along k; m not a multiple of 256"),
      gpu_only(sized(1024, 1024, 1024, "a thousand-cubed product")),
      gpu_only(sized(640, 2176, 4096, "a long k; m and n odd multiples of 128")),
      timed(sized(4096, 4096, 4096, "TFLOP/s")),
  };
}

}  // namespace

PuzzleSpec wgmma_gemm() {
  return matmul::spec({
      .id = 11,
      .slug = "wgmma_gemm",
      .title = "A warp-group GEMM",
      .summary =
          "Puzzle 8's product as Hopper computes it: a producer warp asks the TMA engine for whole tiles, "
          "which land swizzled in a pipeline of shared-memory stages guarded by mbarriers, and a "
          "consumer warp group multiplies them with wgmma, reading both operands from shared memory.",
      .signature = kLauncherSignature,
      .cases = cases(),
      .hints =
          {"Two barriers per stage. full[s] is initialised with a count of 1: the producer's "
           "mbarrier_arrive_expect_tx(&full[s], bytes) is that arrival and announces the bytes, and the two "
           "tma_load calls of the stage complete it. empty[s] counts one arrival per consumer warp. Step t "
           "uses stage t % S for the (t / S)-th time, and a barrier's phase parity flips with each use: the "
           "consumers wait for full[s] with parity (t / S) % 2, the producer for empty[s] with parity "
           "(t / S - 1) % 2 (not at all on the first pass).",
           "A 128 x 64 tile of a lands as 128 rows of 128 bytes, 128B-swizzled: wgmma reads it through "
           "smem_descriptor(&tile[0]). The 16-wide k-slice kk of the tile starts 2 kk bytes further: "
           "smem_descriptor(&tile[kk]), kk = 0, 16, 32, 48. The second 64 rows start at &tile[64 * 64]. "
           "wgmma_m64n128k16(acc, descriptor of a's 64 x 16, descriptor of b's 128 x 16) adds the product "
           "into the warp group's 64 x 128 accumulator.",
           "Block of 160 threads: warps 0-3 are the warp group (wgmma needs its warps to be 4 aligned "
           "ones), warp 4 the producer. The consumers, per step: wait full, wgmma_fence(), 2 halves x 4 "
           "slices of wgmma, wgmma_commit(), wgmma_wait_all(), then lane 0 of each warp arrives on empty. "
           "Thread t's accumulator d[4j .. 4j + 3] is row 16 (t / 32) + (t % 32) / 4 (and + 8), columns "
           "8j + 2 (t % 4) and + 1."},
      .line_budget = 150,
      .traffic_budget = "read a and b once per block tile of c that needs them, write c once",
  });
}

}  // namespace puzzle::puzzles
