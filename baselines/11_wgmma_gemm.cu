// Baseline for puzzle 11 · C = A B^T in bf16 with fp32 sums on cuBLAS (baselines/cublas_gemm_bt.cuh): the
// yardstick that `puzzle bench 11` times beside the solution (docs/baselines.md).
#include <cublas_v2.h>  // linked in by `puzzle bench` when the file names it

#include "cublas_gemm_bt.cuh"

void wgmma_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  cublas_gemm_bt(a, b, c, m, n, k);
}
