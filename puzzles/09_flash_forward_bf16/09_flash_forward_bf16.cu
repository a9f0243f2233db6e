// Puzzle 9 · Flash attention forward in bf16
// Guide: puzzles/09_flash_forward_bf16/README.md    Check: ./puzzle check 9     Hints: ./puzzle hint 9
//
// Spec. Puzzle 5's attention forward, in bf16 on the tensor cores. For each of bh heads, q [n_q, d],
// k and v [n_k, d] and o [n_q, d] are bf16 and lse [n_q] is float, row-major and contiguous:
//
//     s[i][j] = scale * (q_i . k_j)                  for every key j that query i sees
//     o[i]    = sum_j exp(s[i][j] - lse[i]) * v_j     (bf16)
//     lse[i]  = log(sum_j exp(s[i][j]))               (float, natural log)
//
// In PyTorch: o = F.scaled_dot_product_attention(q, k, v, scale=scale, is_causal=...)  (bf16 tensors)
//
// As in puzzle 5: causal is aligned bottom-right (query i sees key j iff j <= i + n_k - n_q); a query that
// sees no key gets o = 0 and lse = -INFINITY; scale is an argument; no n_q x n_k buffer, ever.
//
// Sizes your code must handle: d = 64 or 128; any n_q, n_k >= 1 (tails in both).
// Tolerance: lse as puzzle 5's. o may differ from the float64 reference by 2^-6 * sum_j p_ij |v_jc|: room
// for P rounded to bf16 before O += P V (as FlashAttention-2 does) and for o's own rounding.
//
// Budgets. Lines: roughly 200 for kernel + launcher. Memory traffic:
// read q once, k and v once per block of query rows, write o and lse once.
//
// You choose grid, block and shared memory in the launcher below. Its signature is fixed: the harness
// calls it with device pointers and checks o and lse.
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>

// 16 bytes from global to shared memory, asynchronously; `bytes` < 16 copies that many and zero-fills the
// rest (0: a row past the end becomes zeros). Complete only after a commit and a wait.
__device__ void cp_async_16(void* shared_dst, const void* global_src, int bytes = 16) {
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global_src), "r"(bytes)
               : "memory");
}
__device__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int kPending>
__device__ void cp_async_wait() {  // at most kPending groups still in flight
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// Four 8 x 8 bf16 matrices (puzzle 8): lane l gives the address of row l % 8 of matrix l / 8 and gets in
// r[j] its pair of matrix j. `.trans` gives the pair of the transposed matrix: what V needs in P V.
__device__ void ldmatrix_x4(uint32_t r[4], const void* shared_row) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(shared_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
__device__ void ldmatrix_x4_trans(uint32_t r[4], const void* shared_row) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(shared_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

// c += a * b on the tensor cores (puzzle 7): a 16 x 16, b 16 x 8, bf16 in, float accumulators.
__device__ void mma_m16n8k16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__global__ void flash_fwd_bf16_kernel(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                      __nv_bfloat16* o, float* lse, int n_q, int n_k, int d, float scale,
                                      bool causal) {
  // TODO: a block of 4 warps takes 64 query rows of head blockIdx.y, each warp 16 of them.
  //   1. Q rows into shared memory, then each warp's Q fragments into registers (ldmatrix), kept all along
  //   2. for each tile of 64 keys (causal: up to the last one the block's rows see), staged by cp.async:
  //        S = Q K^T (mma), masked with -INFINITY; row max and sum with quad shuffles; rescale O and l;
  //        P (the S accumulators, packed to bf16 A fragments in registers) times V (ldmatrix .trans)
  //   3. o = O / l as bf16 and lse = m + log(l); rows that saw no key: o = 0, lse = -INFINITY
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void flash_fwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, __nv_bfloat16* o,
                    float* lse, int bh, int n_q, int n_k, int d, float scale, bool causal) {
  // TODO: choose a grid (e.g. ceil(n_q / 64) x bh) and a block, then launch:
  //   flash_fwd_bf16_kernel<<<grid, block, shared_bytes>>>(q, k, v, o, lse, n_q, n_k, d, scale, causal);
}
