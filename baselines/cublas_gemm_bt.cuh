// C = A B^T on cuBLAS, bf16 in, fp32 sums and output: the yardstick of puzzles 7 and 8 (docs/baselines.md).
// Row-major C [m, n] is column-major C^T [n, m] = B A^T, where row-major b [n, k] read column-major is
// B^T [k, n] (so op T gives B) and row-major a [m, k] is A^T [k, m]: one cublasGemmEx with (T, N).
// cuBLAS picks its kernel itself; on an H100 those are wgmma (Hopper's warpgroup MMA) kernels.
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <cstdio>
#include <cstdlib>

inline void cublas_gemm_bt(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "cublasCreate failed\n");
      std::exit(1);
    }
    return h;
  }();
  const float one = 1.0f, zero = 0.0f;
  const cublasStatus_t status =
      cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_16BF, k, a, CUDA_R_16BF, k,
                   &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "cublasGemmEx failed: %d\n", static_cast<int>(status));
}
