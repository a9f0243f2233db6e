// Puzzle 11 · Warp-group GEMM — version 3: persistent blocks.
// Over 2_two_consumer_warpgroups.cu:
//   - one block per SM, each walking tiles until none are left: while the consumers write one tile's C,
//     the producer already loads the next tile's first stages, so the tensor cores wait for no load at a
//     tile's start (each block's stage and phase counters run on across its tiles);
//   - tiles in groups of 8 tile rows, column by column, so that the blocks running at once share A and B
//     tiles in L2.
// m and n need only be multiples of 128; sizes as before otherwise.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "../common/hopper_ptx.cuh"

namespace {

constexpr int kBM = 128, kBN = 256, kBK = 64, kStages = 4;
constexpr int kGroupRows = 8;  // tile rows per group of the tile order
constexpr int kThreads = 3 * 128;
constexpr int kConsumerWarps = 8;
constexpr int kStageBytes = (kBM + kBN) * kBK * 2;

struct Shared {
  __nv_bfloat16 a[kStages][kBM * kBK];
  __nv_bfloat16 b[kStages][kBN * kBK];
  uint64_t full[kStages], empty[kStages];
};
constexpr int kSharedBytes = sizeof(Shared) + 1024;

// Tile `index` in the grouped order: kGroupRows tile rows at a time, walked column by column.
__device__ void tile_at(int index, int tile_rows, int tile_cols, int& row0, int& col0) {
  const int per_group = kGroupRows * tile_cols, first_row = index / per_group * kGroupRows;
  const int rows_here = min(kGroupRows, tile_rows - first_row), in_group = index % per_group;
  row0 = (first_row + in_group % rows_here) * kBM;
  col0 = in_group / rows_here * kBN;
}

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_gemm_persistent(const __grid_constant__ CUtensorMap a_map,
                          const __grid_constant__ CUtensorMap b_map, float* c, int m, int n, int k) {
  extern __shared__ uint8_t shared_bytes[];
  Shared& s =
      *reinterpret_cast<Shared*>((reinterpret_cast<uintptr_t>(shared_bytes) + 1023) & ~uintptr_t{1023});
  const int steps = k / kBK, warp_group = threadIdx.x / 128;
  const int tile_rows = m / kBM, tile_cols = (n + kBN - 1) / kBN, tiles = tile_rows * tile_cols;

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
      int it = 0;  // k-steps so far over this block's tiles: stage it % kStages, use it / kStages
      for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int row0, col0;
        tile_at(tile, tile_rows, tile_cols, row0, col0);
        for (int t = 0; t < steps; ++t, ++it) {
          const int stage = it % kStages, use = it / kStages;
          if (use > 0) mbarrier_wait(&s.empty[stage], (use - 1) % 2);
          mbarrier_arrive_expect_tx(&s.full[stage], kStageBytes);
          tma_load(s.a[stage], &a_map, &s.full[stage], t * kBK, row0);
          tma_load(s.b[stage], &b_map, &s.full[stage], t * kBK, col0);
        }
      }
    }
    return;
  }

  setmaxnreg_inc<232>();
  const int half = warp_group - 1, warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
  float acc[128];
  int it = 0;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int row0, col0;
    tile_at(tile, tile_rows, tile_cols, row0, col0);
    for (int t = 0; t < steps; ++t, ++it) {
      const int stage = it % kStages;
      mbarrier_wait(&s.full[stage], (it / kStages) % 2);
      wgmma_fence();
      for (int kk = 0; kk < kBK; kk += 16)
        wgmma_m64n256k16(acc, smem_descriptor(&s.a[stage][half * 64 * kBK + kk]),
                         smem_descriptor(&s.b[stage][kk]), t > 0 || kk > 0);
      wgmma_commit();
      wgmma_wait<1>();
      if (t > 0 && lane == 0) mbarrier_arrive(&s.empty[(it - 1) % kStages]);
    }
    wgmma_wait<0>();
    if (lane == 0) mbarrier_arrive(&s.empty[(it - 1) % kStages]);

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
}

}  // namespace

void wgmma_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  cudaFuncSetAttribute(wgmma_gemm_persistent, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const int tiles = m / kBM * ((n + kBN - 1) / kBN), blocks = tiles < sms ? tiles : sms;
  wgmma_gemm_persistent<<<blocks, kThreads, kSharedBytes>>>(tensor_map_128b(a, m, k, kBM),
                                                            tensor_map_128b(b, n, k, kBN), c, m, n, k);
}
