// Puzzle 8 · Swizzled shared memory and ldmatrix
// Guide: puzzles/08_swizzled_gemm/README.md    Check: ./puzzle check 8     Hints: ./puzzle hint 8
//
// Spec. The product of puzzle 7, C = A B^T, at speed:
//
//     c[i][j] = sum_x a[i][x] * b[j][x]      a: m x k, b: n x k (bf16, row-major), c: m x n (float)
//
// Puzzle 7's warps read their fragments straight from global memory, 4 bytes at a time, and read each
// element of a and b many times. Here a block stages 128 x 64 tiles of a and b in shared memory with
// cp.async (16-byte copies that skip the registers, running while the tensor cores work on the previous
// tile), and each warp loads its fragments with ldmatrix (one instruction: a 16 x 16 block, already in
// the mma layout). Read naively, those loads hit the same 4 banks 8 times over; store the tiles XOR-
// swizzled and they hit each of the 32 banks once. The check counts bank conflicts on the simulator, and
// allows none.
//
// Sizes your code must handle: m and n multiples of 128, k a multiple of 64 (no tails: this puzzle is
// about the layout). Sums stay in float, as in puzzle 7.
//
// Budgets. Lines: roughly 150 for kernel + launcher. Memory traffic:
// read a and b once per block tile of c that needs them, write c once. Bank conflicts: none.
// The fast reference solution reaches about two thirds of cuBLAS (whose kernels use Hopper's wgmma) on
// an H100, the clear one a third.
//
// You choose grid, block and shared memory in the launcher below. Its signature is fixed: the harness
// calls it with device pointers and checks c.
#include <cuda_bf16.h>

#include <cstdint>

// 16 bytes from global to shared memory, asynchronously: complete only after a commit and a wait.
__device__ void cp_async_16(void* shared_dst, const void* global_src) {
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(global_src) : "memory");
}
__device__ void cp_async_commit() {  // closes the group of copies issued since the last commit
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int kPending>
__device__ void cp_async_wait() {  // waits until at most kPending groups are still in flight
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// Four 8 x 8 bf16 matrices from shared memory: lane l gives the address of row l % 8 of matrix l / 8 (16
// bytes each); r[j] receives the lane's pair of matrix j: row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1.
__device__ void ldmatrix_x4(uint32_t r[4], const void* shared_row) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(shared_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// c += a * b on the tensor cores (puzzle 7): a 16 x 16, b 16 x 8 (b's rows), bf16 in, float accumulators.
__device__ void mma_m16n8k16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__global__ void swizzled_gemm_kernel(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n,
                                     int k) {
  // TODO: a block computes a 128 x 128 tile of c (suggested: 8 warps, each 64 x 32).
  //   1. two stages of shared tiles: a [128][64] and b [128][64] bf16 each, stored swizzled: chunk j (8
  //      elements) of row r at chunk j ^ (r % 8)
  //   2. copy step 0's tiles with cp_async_16 and commit; then for each step s along k:
  //        copy step s + 1 into the other stage and commit; cp_async_wait<1>(); __syncthreads();
  //        for each slice of 16: ldmatrix_x4 the warp's a and b fragments, mma_m16n8k16 them;
  //        __syncthreads() before the next copy overwrites this stage
  //   3. store the accumulators (puzzle 7's c layout)
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void swizzled_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  // TODO: choose a grid and a block, allow more than 48 KiB of dynamic shared memory if you need it
  // (cudaFuncSetAttribute(swizzled_gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)), and
  // launch:  swizzled_gemm_kernel<<<grid, block, bytes>>>(a, b, c, m, n, k);
}
