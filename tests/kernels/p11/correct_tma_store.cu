// expect: passed
// A correct alternative with C written by the TMA unit: one warp group per 64 x 256 tile of C and a single
// stage (thread 0 issues both copies, every thread waits on the one barrier), then each thread stores its
// accumulators to a staging tile in shared memory, fences the async proxy, and after a barrier thread 0
// copies the tile to c with one cp.async.bulk.tensor store (columns past n are not written).
// wrong_no_proxy_fence.cu is this kernel without the fence.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "../../../solutions/common/hopper_ptx.cuh"

namespace {

constexpr int kBM = 64, kBN = 256, kBK = 64;

struct Shared {  // 1024-byte aligned, as the 128B swizzle wants
  __nv_bfloat16 a[kBM * kBK];
  __nv_bfloat16 b[kBN * kBK];
  float c[kBM * kBN];  // the tile of C, row-major: the store's box
  uint64_t full;
};
constexpr int kSharedBytes = sizeof(Shared) + 1024;

__global__ void __launch_bounds__(128)
    gemm_tma_store(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                   const __grid_constant__ CUtensorMap c_map, int k) {
  extern __shared__ uint8_t shared_bytes[];
  Shared& s =
      *reinterpret_cast<Shared*>((reinterpret_cast<uintptr_t>(shared_bytes) + 1023) & ~uintptr_t{1023});
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  if (threadIdx.x == 0) {
    mbarrier_init(&s.full, 1);
    fence_barrier_init();
  }
  __syncthreads();

  float acc[128];
  for (int t = 0; t < k / kBK; ++t) {
    if (threadIdx.x == 0) {
      mbarrier_arrive_expect_tx(&s.full, (kBM + kBN) * kBK * 2);
      tma_load(s.a, &a_map, &s.full, t * kBK, row0);
      tma_load(s.b, &b_map, &s.full, t * kBK, col0);
    }
    mbarrier_wait(&s.full, t % 2);
    wgmma_fence();
    for (int kk = 0; kk < kBK; kk += 16)
      wgmma_m64n256k16(acc, smem_descriptor(&s.a[kk]), smem_descriptor(&s.b[kk]), t > 0 || kk > 0);
    wgmma_commit();
    wgmma_wait<0>();
    __syncthreads();  // the stage is read: thread 0 may refill it
  }

  const int row = threadIdx.x / 32 * 16 + threadIdx.x % 32 / 4;
  for (int j = 0; j < kBN / 8; ++j) {
    const int col = j * 8 + threadIdx.x % 4 * 2;
    *reinterpret_cast<float2*>(&s.c[row * kBN + col]) = make_float2(acc[4 * j], acc[4 * j + 1]);
    *reinterpret_cast<float2*>(&s.c[(row + 8) * kBN + col]) = make_float2(acc[4 * j + 2], acc[4 * j + 3]);
  }
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    tma_store(&c_map, s.c, col0, row0);
    bulk_commit();
    bulk_wait_read<0>();  // the block's shared memory must outlive the copy's reads
  }
}

CUtensorMap c_tensor_map(float* c, int m, int n) {
  CUtensorMap map;
  const cuuint64_t size[2] = {static_cast<cuuint64_t>(n), static_cast<cuuint64_t>(m)};
  const cuuint64_t row_stride[1] = {static_cast<cuuint64_t>(n) * sizeof(float)};
  const cuuint32_t box[2] = {kBN, kBM}, element_stride[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, c, size, row_stride, box, element_stride,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

}  // namespace

void wgmma_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  cudaFuncSetAttribute(gemm_tma_store, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
  const dim3 grid((n + kBN - 1) / kBN, m / kBM);
  gemm_tma_store<<<grid, 128, kSharedBytes>>>(tensor_map_128b(a, m, k, kBM), tensor_map_128b(b, n, k, kBN),
                                              c_tensor_map(c, m, n), k);
}
