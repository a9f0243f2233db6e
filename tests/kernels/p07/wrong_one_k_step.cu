// expect: failed
// expect-diagnosis: k_cut_short
// expect-sim-cases: 16x8x128
// Wrong: the loop over k makes one step of 16 and stops: c is the product of the first 16 columns of a and b.
#include "warp_tile.cuh"

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  launch_warp_tiles<RightStep, RightStore>(a, b, c, m, n, k, 16);
}
