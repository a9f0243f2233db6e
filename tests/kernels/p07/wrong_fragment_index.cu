// expect: failed
// expect-diagnosis: fragment_places
// expect-sim-cases: 16x8x16
// Wrong: the store mixes up the accumulator's registers, acc[half + 2 * e] for acc[2 * half + e]: c1 (row
// g, column 2t + 1) and c2 (row g + 8, column 2t) trade places. Every tile is wrong at the same 64 places.
#include "warp_tile.cuh"

struct SwappedStore {
  __device__ void operator()(const Tile& w, const float acc[4]) const {
    for (int half = 0; half < 2; ++half) {
      for (int e = 0; e < 2; ++e) {
        const int row = w.row0 + w.g + 8 * half, col = w.col0 + 2 * w.t + e;
        if (row < w.m && col < w.n) w.c[static_cast<size_t>(row) * w.n + col] = acc[half + 2 * e];
      }
    }
  }
};

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  launch_warp_tiles<RightStep, SwappedStore>(a, b, c, m, n, k, k);
}
