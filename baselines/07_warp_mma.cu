// Baseline for puzzle 7 · C = A B^T in bf16 with fp32 sums on cuBLAS (baselines/cublas_gemm_bt.cuh): the
// yardstick that `puzzle bench 7` times beside the solution (docs/baselines.md).
#include <cublas_v2.h>  // linked in by `puzzle bench` when the file names it

#include "cublas_gemm_bt.cuh"

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  cublas_gemm_bt(a, b, c, m, n, k);
}
