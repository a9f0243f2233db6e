// Puzzle 10 · Flash attention backward in bf16
// Guide: puzzles/10_flash_backward_bf16/README.md    Check: ./puzzle check 10     Hints: ./puzzle hint 10
//
// Spec. Puzzle 6's attention backward, in bf16 on the tensor cores. For each of bh heads, q, o, dout and
// dq [n_q, d], k, v, dk and dv [n_k, d] are bf16, lse [n_q] is float (natural log), row-major, contiguous:
//
//     P = exp(scale * Q K^T - lse) (masked: 0)    D_i = rowsum(dO * O)_i
//     dV = P^T dO          dP = dO V^T          dS = P * (dP - D)
//     dQ = scale * dS K    dK = scale * dS^T Q                          (* is elementwise)
//
// In PyTorch: dq, dk, dv = torch.autograd.grad(F.scaled_dot_product_attention(q, k, v, scale=scale,
// is_causal=...), (q, k, v), dout)  (bf16 tensors; the harness gives you o and lse of that forward)
//
// As in puzzle 6: causal is aligned bottom-right (query i sees key j iff j <= i + n_k - n_q); a query that
// sees no key has lse = -INFINITY and adds nothing anywhere (P = 0 there: never exp(+inf)); scale is an
// argument; recompute P from lse tile by tile, never store an n_q x n_k matrix. dq, dk, dv: every element
// written.
//
// Sizes your code must handle: d = 64 or 128; any n_q, n_k >= 1 (tails in both, n_q != n_k both ways).
// Tolerance: the float64 reference's, plus room for P and dS rounded to bf16 once each (the mma operands,
// as FlashAttention-2 does it) and for dq, dk and dv's own rounding. Sum in fp32: the mma's accumulators,
// and dQ in an fp32 scratch (atomicAdd), converted to bf16 at the end.
//
// Budgets. Lines: roughly 280 for kernels + launcher. Memory traffic (a key tile: the keys of one block):
//     read k, v once; q, dout, lse, D once per key tile; write dk, dv once; add into dq once per key tile
// Extra device memory: O(bh * n * d), e.g. an fp32 dQ accumulator and D (an n_q x n_k scratch is rejected).
//
// You choose grid, blocks, shared memory and scratch buffers in the launcher below. Its signature is
// fixed: the harness calls it with device pointers and checks dq, dk and dv.
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
// r[j] its pair of matrix j. `.trans` gives the pair of the transposed matrix.
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

__global__ void delta_kernel(const __nv_bfloat16* o, const __nv_bfloat16* dout, float* delta, int rows,
                             int d) {
  // TODO: delta[row] = sum_c o[row][c] * dout[row][c], in float, one row per thread (rows = bh * n_q).
}

__global__ void flash_bwd_bf16_kernel(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                                      const float* lse, const float* delta, const __nv_bfloat16* dout,
                                      float* dq_accum, __nv_bfloat16* dk, __nv_bfloat16* dv, int n_q, int n_k,
                                      int d, float scale, bool causal) {
  // TODO: a block of 4 warps takes 64 keys of head blockIdx.y, each warp 16 of them (the M of an mma).
  //   1. K and V tiles into shared memory (cp.async, zeros past n_k); dK, dV accumulators in registers
  //   2. for each tile of 64 queries (causal: from the first that sees key k0, i >= k0 - (n_k - n_q)):
  //        Q, dO tiles (cp.async, zeros past n_q), lse and D of the tile into shared memory
  //        S^T = K Q^T and dP^T = V dO^T by mma (16 keys x 64 queries per warp)
  //        P^T = exp2(S^T * scale * log2(e) - lse * log2(e)), 0 where masked; dS^T = P^T * (dP^T - D)
  //        dV += P^T dO, dK += dS^T Q: the accumulators packed to bf16 A fragments (puzzle 9's P),
  //          dO and Q by ldmatrix .trans
  //        dS^T (bf16) into shared memory; dQ += dS K (ldmatrix .trans of both), atomicAdd into dq_accum
  //   3. dk = bf16(scale * dK), dv = bf16(dV)
}

__global__ void dq_kernel(const float* dq_accum, __nv_bfloat16* dq, float scale, int n) {
  // TODO: dq[i] = bf16(scale * dq_accum[i]).
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void flash_bwd_bf16(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v,
                    const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout, __nv_bfloat16* dq,
                    __nv_bfloat16* dk, __nv_bfloat16* dv, int bh, int n_q, int n_k, int d, float scale,
                    bool causal) {
  // TODO: scratch (cudaMalloc): delta (bh * n_q floats), dq_accum (bh * n_q * d floats, zeroed with
  // cudaMemsetAsync); then launch delta_kernel, flash_bwd_bf16_kernel (grid: ceil(n_k / 64) x bh; raise
  // cudaFuncAttributeMaxDynamicSharedMemorySize past 48 KiB of shared memory), dq_kernel; cudaFree both.
  //   flash_bwd_bf16_kernel<<<grid, block, shared_bytes>>>(q, k, v, lse, delta, dout, dq_accum, dk, dv,
  //                                                        n_q, n_k, d, scale, causal);
}
