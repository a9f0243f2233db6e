// expect: failed
// expect-diagnosis: a_fragment_order
// expect-sim-cases: 16x8x16 integers_16x8x16
// Wrong: A's registers 1 and 2 swapped: the mma gets row g + 8's pair of k 2t where it wants row g's pair
// of k 2t + 8, and the other way round. Every element of c is wrong, at no place of the tile in particular:
// only the product that the swapped fragment computes explains c.
#include "warp_tile.cuh"

struct SwappedAStep {
  __device__ void operator()(const Tile& w, int k0, float acc[4]) const {
    uint32_t fa[4], fb[2];
    load_a(w, k0, fa);
    load_b(w, k0, fb);
    const uint32_t swapped[4] = {fa[0], fa[2], fa[1], fa[3]};
    mma_k16(acc, swapped, fb);
  }
};

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  launch_warp_tiles<SwappedAStep, RightStore>(a, b, c, m, n, k, k);
}
