// The PTX of the tensor-core puzzles' fast versions (puzzles 8-10; puzzle 6's version 6 takes its ldmatrix),
// one copy: cp.async, ldmatrix, mma.sync m16n8k16 in bf16 and bf16 packing. These are the wrappers the stubs
// hand out; the stubs and the clear solutions keep their own copy so that each reads (and builds) alone.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

// The 32-bit shared-memory address PTX takes, from a generic pointer into shared memory.
__device__ __forceinline__ uint32_t shared_address(const void* shared) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(shared));
}

// 16 bytes global -> shared, asynchronously (through L2 only: .cg).
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}
// The same, reading only the first `bytes` of src (0 or 16): the rest of the 16 is written as zeros, so that
// a row past the end of a matrix lands as zeros without a branch.
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void* src, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void cp_async_16(void* dst, const void* src, int bytes) {
  cp_async_16(shared_address(dst), src, bytes);
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {  // at most kPending groups of this thread still in flight
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// Four 8 x 8 bf16 matrices: lane l gives the address of row l % 8 of matrix l / 8, and gets in r[j] its
// pair of matrix j (row l / 4, columns 2 (l % 4), +1), or with .trans its pair of the transposed matrix.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* shared_row) {
  ldmatrix_x4(r, shared_address(shared_row));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const void* shared_row) {
  ldmatrix_x4_trans(r, shared_address(shared_row));
}

// c += a * b on the tensor cores: a 16 x 16 (row), b 16 x 8 (col), bf16 in, fp32 accumulators.
__device__ __forceinline__ void mma_bf16(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
// The same with B as one fragment; its accumulators written as outputs from separate inputs, which is how
// puzzle 8's fast version was measured (the "+f" form above gives other PTX for it).
__device__ __forceinline__ void mma_bf16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]),
        "f"(d[3]));
}

// Two floats as one bf16x2 register, lo in the low half: an A-fragment register.
__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi) {
  __nv_bfloat162 two = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<uint32_t*>(&two);
}

}  // namespace
