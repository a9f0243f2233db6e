// Puzzle 11 · A warp-group GEMM
// Guide: puzzles/11_wgmma_gemm/README.md    Check: ./puzzle check 11     Hints: ./puzzle hint 11
//
// Spec. Puzzle 8's product, C = A B^T, as Hopper (H100, H200) computes it:
//
//     c[i][j] = sum_x a[i][x] * b[j][x]      a: m x k, b: n x k (bf16, row-major), c: m x n (float)
//
// Puzzle 8's threads copied tiles 16 bytes at a time and each warp fed its tensor cores with ldmatrix and
// mma.sync. Here one thread asks the TMA engine for a whole 128 x 64 tile (tma_load, below), which lands in
// shared memory already 128B-swizzled and signals an mbarrier when its bytes have arrived; a warp group
// (4 warps) multiplies 64 x 16 by 16 x 128 in one wgmma instruction that reads both operands straight from
// shared memory through descriptors. A producer warp keeps a pipeline of stages full while the warp group
// computes: two mbarriers per stage, `full` (its tiles have landed) and `empty` (the consumers are done).
//
// Sizes your code must handle: m and n multiples of 128, k a multiple of 64. Sums stay in float.
//
// Budgets. Lines: roughly 150 for kernel + launcher, the wrappers below included. Memory traffic:
// read a and b once per block tile of c that needs them, write c once.
// The clear reference solution (one warp group, 128 x 128 tiles, 4 stages) and the fast ones (two warp
// groups on 128 x 256 tiles; persistent blocks) are timed beside cuBLAS on the puzzle's page.
//
// You choose grid, block and shared memory in the launcher below. Its signature is fixed: the harness
// calls it with device pointers and checks c. The tensor maps are made on the host (tensor_map, below)
// and passed to the kernel by value as `const __grid_constant__ CUtensorMap`.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

// ---- Given: the PTX of Hopper's asynchronous path ----
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

// ---- Your kernel and launcher ----

// TODO: a kernel of 160 threads: warps 0-3 the consumer warp group, warp 4 the producer.
//   1. One thread initialises full[s] (count 1) and empty[s] (count 4) for each stage; __syncthreads().
//   2. Producer (one thread): for each k-step t, wait for empty[t % S] (after the first pass), then
//      mbarrier_arrive_expect_tx(&full[t % S], bytes of both tiles) and tma_load the a and b tiles.
//   3. Consumers: wait for full[t % S], wgmma_fence(), wgmma over the stage, wgmma_commit(),
//      wgmma_wait_all(), then one arrival per warp on empty[t % S].
//   4. Write the accumulators to c.

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void wgmma_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  // TODO: set the dynamic shared memory limit, make the tensor maps (tensor_map(a, m, k, 128), ...) and
  // launch your kernel.
}
