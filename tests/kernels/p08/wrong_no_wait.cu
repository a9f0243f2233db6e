// expect: failed
// expect-sim-diagnosis: sim_async_copy_not_waited
// backends: sim
// expect-sim-cases: integers_128x128x128
// Wrong: the wait before a stage is read lets one step too many stay in flight (wait_group 4 where 2 is
// right: two groups, a and b, per step), so the warps read tiles cp.async may not have filled yet. On a
// GPU this is a race that often goes unseen; the simulator tracks every pending copy and names the read.
#include "tile_gemm.cuh"

void swizzled_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  tile_gemm::launch</*swizzle=*/true, /*pending=*/2, /*trans_b=*/false>(a, b, c, m, n, k);
}
