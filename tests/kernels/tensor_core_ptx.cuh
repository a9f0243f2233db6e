// The PTX of the tensor-core test kernels (tests/kernels/p09, p10), one copy: cp.async, ldmatrix,
// mma.sync m16n8k16 and bf16 packing, as the puzzles' stubs give them. The solutions stay standalone
// (a learner reads each alone); test kernels are not teaching material, so they share these.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

// 16 bytes global -> shared, asynchronously; bytes = 0 copies nothing and writes 16 zeros.
__device__ void cp_async_16(void* shared_dst, const void* global_src, int bytes) {
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global_src), "r"(bytes)
               : "memory");
}
__device__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int kPending>
__device__ void cp_async_wait() {  // at most kPending groups of this thread still in flight
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// Four 8 x 8 bf16 matrices: lane l gives the address of row l % 8 of matrix l / 8, and gets in r[j] its
// pair of matrix j (row l / 4, columns 2 (l % 4), +1), or with .trans its pair of the transposed matrix.
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

// c += a * b on the tensor cores: a 16 x 16 (row), b 16 x 8 (col), bf16 in, fp32 accumulators.
__device__ void mma_m16n8k16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Two floats as one bf16x2 register, lo in the low half: an A-fragment register.
__device__ uint32_t pack_bf16(float lo, float hi) {
  __nv_bfloat162 two = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<uint32_t*>(&two);
}

// Starts copying rows first .. first + 63 of an [n, D] matrix into a swizzled tile; rows past n become

}  // namespace
