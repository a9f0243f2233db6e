// expect: failed
// expect-sim-diagnosis: sim_warp_aligned_missing_lane
// backends: sim
// expect-sim-cases: 1x1x16
// Wrong: lanes whose rows of a lie past m skip the mma. mma.sync is .aligned: every lane of the warp must
// execute it, or the result is undefined. The simulator names the missing lanes and the line; a GPU gives
// no error at all (this kernel happens to pass there on some cases and not others), hence sim only.
#include "warp_tile.cuh"

struct GuardedStep {
  __device__ void operator()(const Tile& w, int k0, float acc[4]) const {
    if (w.row0 + w.g >= w.m) return;  // the bug: the guard belongs on the loads, not the mma
    RightStep()(w, k0, acc);
  }
};

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  launch_warp_tiles<GuardedStep, RightStore>(a, b, c, m, n, k, k);
}
