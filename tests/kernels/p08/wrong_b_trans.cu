// expect: failed
// expect-diagnosis: b_blocks_transposed
// expect-sim-cases: 128x128x64
// Wrong: b's fragments loaded with ldmatrix .trans. The mma's B operand is "col": its columns are b's rows,
// which shared memory already holds as rows, so .trans hands each lane the transposed 8 x 8 block.
#include "tile_gemm.cuh"

void swizzled_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  tile_gemm::launch</*swizzle=*/true, /*pending=*/1, /*trans_b=*/true>(a, b, c, m, n, k);
}
