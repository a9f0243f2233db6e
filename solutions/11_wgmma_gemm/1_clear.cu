// Puzzle 11 · Warp-group GEMM — version 1: clear.
// C = A · Bᵀ as in puzzle 8 (A [m, k] and B [n, k] bf16 row-major, C [m, n] fp32 row-major), on Hopper's
// asynchronous path. What it teaches:
//   - TMA: one thread asks the copy engine for a whole 128 x 64 tile (cp.async.bulk.tensor) described by a
//     tensor map made on the host; the tile lands in shared memory already 128B-swizzled;
//   - mbarriers: a TMA copy completes on an mbarrier (the barrier counts the bytes it expects), and a
//     pipeline of stages runs on two barriers per stage: `full` (the tile has landed) and `empty` (the
//     consumers are done with it);
//   - warp specialisation: a producer warp only issues copies; a consumer warp group (4 warps, 128 threads)
//     only computes;
//   - wgmma.mma_async: the warp group multiplies 64 x 16 by 16 x 128 in one instruction, reading both
//     operands from shared memory through descriptors, into 64 fp32 accumulators per thread.
// Block tile 128 x 128 (the warp group does two 64-row halves), k in steps of 64, 4 stages.
// Sizes: m, n multiples of 128, k a multiple of 64 (puzzle 11's contract).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kBM = 128, kBN = 128, kBK = 64;  // block tile of C; k per stage (64 bf16 = one 128-byte row)
constexpr int kStages = 4;
constexpr int kConsumers = 128, kThreads = kConsumers + 32;  // warps 0-3: the warp group; warp 4: producer
constexpr int kStageBytes = (kBM + kBN) * kBK * 2;           // what one stage's two copies bring: 32 KiB

struct Shared {  // 1024-byte aligned: the 128B swizzle repeats every 8 rows of 128 bytes
  __nv_bfloat16 a[kStages][kBM * kBK];
  __nv_bfloat16 b[kStages][kBN * kBK];
  uint64_t full[kStages], empty[kStages];
};
constexpr int kSharedBytes = sizeof(Shared) + 1024;  // + room to align

// ---- The PTX wrappers the stub gives ----
__device__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ void mbarrier_init(uint64_t* bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}
__device__ void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes)
               : "memory");
}
__device__ void mbarrier_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}
__device__ bool mbarrier_try_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(done)
      : "r"(smem_u32(bar)), "r"(parity)
      : "memory");
  return done != 0;
}
__device__ void tma_load(void* dst, const CUtensorMap* map, uint64_t* bar, int col, int row) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
      "%3}], "
      "[%4];\n" ::"r"(smem_u32(dst)),
      "l"(map), "r"(col), "r"(row), "r"(smem_u32(bar))
      : "memory");
}
__device__ uint64_t smem_descriptor(const void* tile) {  // K-major, 128B swizzle, 8-row groups 1024 B apart
  return (static_cast<uint64_t>(smem_u32(tile) & 0x3FFFF) >> 4) | (static_cast<uint64_t>(1) << 16) |
         (static_cast<uint64_t>(1024 >> 4) << 32) | (static_cast<uint64_t>(1) << 62);
}
__device__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ void wgmma_wait_all() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
// d (64 x 128 fp32) += A (64 x 16) * B^T (B: 128 x 16), both K-major in shared memory. Thread t of the warp
// group holds d[4j .. 4j + 3] = (r, c), (r, c + 1), (r + 8, c), (r + 8, c + 1), r = 16 (t / 32) + (t % 32) /
// 4, c = 8j + 2 (t % 4).
__device__ void wgmma_m64n128k16(float (&d)[64], uint64_t a_desc, uint64_t b_desc) {
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
      "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
      "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
      "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
      "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
      "}, %64, %65, 1, 1, 1, 0, 0;\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]),
        "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
        "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),
        "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),
        "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),
        "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]),
        "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a_desc), "l"(b_desc));
}
// ---- End of the given wrappers ----

__global__ void __launch_bounds__(kThreads)
    wgmma_gemm_clear(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                     float* c, int n, int k) {
  extern __shared__ uint8_t shared_bytes[];
  Shared& s =
      *reinterpret_cast<Shared*>((reinterpret_cast<uintptr_t>(shared_bytes) + 1023) & ~uintptr_t{1023});
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN, steps = k / kBK;

  // 1. One thread sets up the barriers: `full` waits for the producer's arrival and the stage's bytes;
  //    `empty` for one arrival from each consumer warp.
  if (threadIdx.x == 0) {
    for (int i = 0; i < kStages; ++i) {
      mbarrier_init(&s.full[i], 1);
      mbarrier_init(&s.empty[i], kConsumers / 32);
    }
  }
  __syncthreads();

  // 2. The producer: for each k-step, wait until its stage is free (not at the first pass), announce the
  //    bytes and start both copies. Step t uses stage t % kStages for the (t / kStages)-th time, and phase
  //    parity alternates with each use.
  if (threadIdx.x >= kConsumers) {
    if (threadIdx.x == kConsumers) {
      for (int t = 0; t < steps; ++t) {
        const int stage = t % kStages, use = t / kStages;
        if (use > 0)
          while (!mbarrier_try_wait(&s.empty[stage], (use - 1) % 2)) {
          }
        mbarrier_arrive_expect_tx(&s.full[stage], kStageBytes);
        tma_load(s.a[stage], &a_map, &s.full[stage], t * kBK, row0);
        tma_load(s.b[stage], &b_map, &s.full[stage], t * kBK, col0);
      }
    }
    return;
  }

  // 3. The consumer warp group: wait for the stage, 2 halves x 4 k-slices of wgmma, wait for them to finish,
  //    then hand the stage back to the producer (one arrival per warp).
  float acc[2][64] = {};
  for (int t = 0; t < steps; ++t) {
    const int stage = t % kStages;
    while (!mbarrier_try_wait(&s.full[stage], (t / kStages) % 2)) {
    }
    wgmma_fence();
    for (int half = 0; half < 2; ++half)
      for (int kk = 0; kk < kBK; kk += 16)
        wgmma_m64n128k16(acc[half], smem_descriptor(&s.a[stage][half * 64 * kBK + kk]),
                         smem_descriptor(&s.b[stage][kk]));
    wgmma_commit();
    wgmma_wait_all();
    if (threadIdx.x % 32 == 0) mbarrier_arrive(&s.empty[stage]);
  }

  // 4. Write C: each thread's pairs of columns as float2.
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int half = 0; half < 2; ++half)
    for (int j = 0; j < kBN / 8; ++j) {
      const int row = row0 + half * 64 + warp * 16 + lane / 4, col = col0 + j * 8 + lane % 4 * 2;
      float* out = c + static_cast<size_t>(row) * n + col;
      *reinterpret_cast<float2*>(out) = make_float2(acc[half][4 * j], acc[half][4 * j + 1]);
      *reinterpret_cast<float2*>(out + 8 * static_cast<size_t>(n)) =
          make_float2(acc[half][4 * j + 2], acc[half][4 * j + 3]);
    }
}

// A tensor map of a row-major [rows, cols] bf16 matrix, copied in boxes of box_rows x 64 that land
// 128B-swizzled in shared memory.
CUtensorMap tensor_map(const __nv_bfloat16* matrix, int rows, int cols, int box_rows) {
  CUtensorMap map;
  const cuuint64_t size[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_stride[1] = {static_cast<cuuint64_t>(cols) * 2};
  const cuuint32_t box[2] = {64, static_cast<cuuint32_t>(box_rows)}, element_stride[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<__nv_bfloat16*>(matrix), size,
                         row_stride, box, element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

}  // namespace

void wgmma_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  cudaFuncSetAttribute(wgmma_gemm_clear, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
  const dim3 grid(n / kBN, m / kBM);
  wgmma_gemm_clear<<<grid, kThreads, kSharedBytes>>>(tensor_map(a, m, k, kBM), tensor_map(b, n, k, kBN), c, n,
                                                     k);
}
