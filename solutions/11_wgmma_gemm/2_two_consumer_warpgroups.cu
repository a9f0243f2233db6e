// Puzzle 11 · Warp-group GEMM — version 2: two consumer warp groups.
// Over 1_clear.cu:
//   - a 128 x 256 block tile computed by two consumer warp groups, each 64 rows x 256 columns with one
//     wgmma.m64n256k16 per k-slice (128 accumulators a thread): per byte of B read from shared memory the
//     tensor cores do twice the work of 1_clear.cu's n = 128, and B is read from L2 once per 128 rows;
//   - the producer is a whole warp group that gives its registers to the consumers (setmaxnreg: 40 for
//     the producer, 232 for each consumer), which the 128 accumulators need;
//   - the wgmma of step t are issued before the consumers wait for those of step t - 1 (wgmma_wait<1>), so
//     the tensor cores always have the next group queued; stage t - 1 is handed back then;
//   - 4 stages of 48 KiB (192 KiB of the 227 KiB a block may have);
//   - n need only be a multiple of 128: a tile's columns past n are read as zeros (TMA) and not written.
// The PTX wrappers are the stub's, in solutions/common/hopper_ptx.cuh. Sizes as 1_clear.cu.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "../common/hopper_ptx.cuh"

namespace {

constexpr int kBM = 128, kBN = 256, kBK = 64, kStages = 4;
constexpr int kWarpGroups = 3, kThreads = 128 * kWarpGroups;  // warp group 0: producer; 1, 2: consumers
constexpr int kConsumerWarps = 8;
constexpr int kStageBytes = (kBM + kBN) * kBK * 2;  // 48 KiB

struct Shared {
  __nv_bfloat16 a[kStages][kBM * kBK];
  __nv_bfloat16 b[kStages][kBN * kBK];
  uint64_t full[kStages], empty[kStages];
};
constexpr int kSharedBytes = sizeof(Shared) + 1024;

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_gemm_two_consumers(const __grid_constant__ CUtensorMap a_map,
                             const __grid_constant__ CUtensorMap b_map, float* c, int n, int k) {
  extern __shared__ uint8_t shared_bytes[];
  Shared& s =
      *reinterpret_cast<Shared*>((reinterpret_cast<uintptr_t>(shared_bytes) + 1023) & ~uintptr_t{1023});
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN, steps = k / kBK;
  const int warp_group = threadIdx.x / 128;

  if (threadIdx.x == 0) {
    for (int i = 0; i < kStages; ++i) {
      mbarrier_init(&s.full[i], 1);
      mbarrier_init(&s.empty[i], kConsumerWarps);
    }
    fence_barrier_init();
  }
  __syncthreads();

  if (warp_group == 0) {  // the producer
    setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      for (int t = 0; t < steps; ++t) {
        const int stage = t % kStages, use = t / kStages;
        if (use > 0) mbarrier_wait(&s.empty[stage], (use - 1) % 2);
        mbarrier_arrive_expect_tx(&s.full[stage], kStageBytes);
        tma_load(s.a[stage], &a_map, &s.full[stage], t * kBK, row0);
        tma_load(s.b[stage], &b_map, &s.full[stage], t * kBK, col0);
      }
    }
    return;
  }

  setmaxnreg_inc<232>();
  const int half = warp_group - 1;  // this consumer's 64 rows of the tile
  float acc[128];                   // the first wgmma of the tile writes them (accumulate = false)
  for (int t = 0; t < steps; ++t) {
    const int stage = t % kStages;
    mbarrier_wait(&s.full[stage], (t / kStages) % 2);
    wgmma_fence();
    for (int kk = 0; kk < kBK; kk += 16)
      wgmma_m64n256k16(acc, smem_descriptor(&s.a[stage][half * 64 * kBK + kk]),
                       smem_descriptor(&s.b[stage][kk]), t > 0 || kk > 0);
    wgmma_commit();
    wgmma_wait<1>();  // step t - 1's wgmma are done: its stage goes back to the producer
    if (t > 0 && threadIdx.x % 32 == 0) mbarrier_arrive(&s.empty[(t - 1) % kStages]);
  }
  wgmma_wait<0>();

  const int warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
  const int row = row0 + half * 64 + warp * 16 + lane / 4;
  for (int j = 0; j < kBN / 8; ++j) {
    const int col = col0 + j * 8 + lane % 4 * 2;
    if (col >= n) break;
    float* out = c + static_cast<size_t>(row) * n + col;
    *reinterpret_cast<float2*>(out) = make_float2(acc[4 * j], acc[4 * j + 1]);
    *reinterpret_cast<float2*>(out + 8 * static_cast<size_t>(n)) =
        make_float2(acc[4 * j + 2], acc[4 * j + 3]);
  }
}

}  // namespace

void wgmma_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  cudaFuncSetAttribute(wgmma_gemm_two_consumers, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
  const dim3 grid((n + kBN - 1) / kBN, m / kBM);
  wgmma_gemm_two_consumers<<<grid, kThreads, kSharedBytes>>>(tensor_map_128b(a, m, k, kBM),
                                                             tensor_map_128b(b, n, k, kBN), c, n, k);
}
