// expect: failed
// expect-diagnosis: bank_conflicts
// expect-sim-cases: 128x128x64
// Wrong on this puzzle's terms: right values, but the tiles are stored plain (chunk j of a row at chunk j).
// A tile row is 128 bytes, all 32 banks, so the 8 rows an ldmatrix phase reads start in the same bank: an
// 8-way conflict on every fragment load. The simulator counts the wavefronts and fails the case; a GPU only
// runs slower, so a GPU check takes the count from the simulator run it does beside it (its smallest cases).
#include "tile_gemm.cuh"

void swizzled_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  tile_gemm::launch</*swizzle=*/false, /*pending=*/1, /*trans_b=*/false>(a, b, c, m, n, k);
}
