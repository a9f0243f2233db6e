// Puzzle 7 · A warp of tensor cores
// Guide: puzzles/07_warp_mma/README.md    Check: ./puzzle check 7     Hints: ./puzzle hint 7
//
// Spec. C = A B^T, the score tile S = Q K^T of attention:
//
//     c[i][j] = sum_x a[i][x] * b[j][x]      a: m x k, b: n x k (bf16, row-major), c: m x n (float)
//
// In PyTorch: c = (a.float() @ b.float().T)   (a, b bfloat16)
//
// Compute it on the tensor cores, one warp-wide `mma.sync.aligned.m16n8k16` at a time: each step multiplies
// a 16 x 16 slice of a by a 16 x 8 slice of b^T and adds the 16 x 8 product into float accumulators. The
// instruction is collective: every one of the warp's 32 lanes hands in its own piece of the three
// matrices, in registers, in a layout the PTX ISA fixes (puzzles/07_warp_mma/README.md draws it). Getting
// that layout right is this puzzle.
//
// Sizes your code must handle: any m >= 1 and n >= 1 (tails: rows of a and b past the last tile are
// zeros you supply, never loads), k a multiple of 16 (16 to 1024 here). Sums stay in float: the judge
// allows the rounding of k float additions, not of bf16 ones.
//
// Budgets. Lines: roughly 60 for kernel + launcher. Memory traffic:
// read a and b from global memory once per tile of c that needs them, write c once.
// Speed comes in puzzle 8 (shared memory, ldmatrix).
//
// You choose grid, block and shared memory in the launcher below. Its signature is fixed: the harness
// calls it with device pointers and checks c.
#include <cuda_bf16.h>

#include <cstdint>

// c += a * b on the tensor cores: a 16 x 16 (row-major) times b 16 x 8 (column-major: b's rows), bf16 in,
// float accumulators. a[4], b[2]: two bf16 per register, the lower k in the low 16 bits.
__device__ void mma_m16n8k16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__global__ void warp_mma_kernel(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n,
                                int k) {
  // TODO: give each warp a 16 x 8 tile of c. With g = lane / 4 and t = lane % 4, for each k0 in steps of 16:
  //   1. load this lane's 4 registers of a's 16 x 16 slice and 2 of b's (which elements: ./puzzle hint 7)
  //   2. mma_m16n8k16(acc, fa, fb);   -- every lane, even one whose rows are past m or n
  // then 3. store this lane's 4 accumulators where they belong in c (rows < m, columns < n only).
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  // TODO: choose a grid and a block (a multiple of 32 threads), then launch:
  //   warp_mma_kernel<<<grid, block>>>(a, b, c, m, n, k);
}
