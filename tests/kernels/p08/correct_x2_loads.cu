// expect: passed
// Correct, written differently: 64 x 64 block tiles of 4 warps, 32 KiB of static shared memory, b's
// fragments by ldmatrix.x2 (one mma's worth per load) instead of x4, a and b copied as separate cp.async
// groups, swizzled as the solution is.
#include "tile_gemm.cuh"

void swizzled_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  tile_gemm::launch</*swizzle=*/true, /*pending=*/1, /*trans_b=*/false>(a, b, c, m, n, k);
}
