// expect: failed
// expect-diagnosis: sixteen_bit_rounding
// expect-sim-cases: 16x8x16
// Wrong: each accumulator is rounded to bf16 before it is stored, as if c were a bf16 matrix: off by up to
// 2^-8 of each value, far beyond the rounding of k float additions.
#include "warp_tile.cuh"

struct Bf16Store {
  __device__ void operator()(const Tile& w, const float acc[4]) const {
    float rounded[4];
    for (int i = 0; i < 4; ++i) rounded[i] = __bfloat162float(__float2bfloat16(acc[i]));
    RightStore()(w, rounded);
  }
};

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  launch_warp_tiles<RightStep, Bf16Store>(a, b, c, m, n, k, k);
}
