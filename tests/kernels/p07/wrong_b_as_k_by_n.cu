// expect: failed
// expect-diagnosis: b_read_as_k_by_n
// expect-sim-cases: 16x8x16
// Wrong: b read as a [k, n] matrix, element (x, j) at b[x * n + j], as if it were B^T's transpose already.
// It is [n, k]: column j of B^T is row j of b.
#include "warp_tile.cuh"

__device__ uint32_t column_pair(const Tile& w, int x, int j) {
  __nv_bfloat162 two = __floats2bfloat162_rn(0.0f, 0.0f);
  if (j < w.n)
    two = __nv_bfloat162(w.b[static_cast<size_t>(x) * w.n + j], w.b[static_cast<size_t>(x + 1) * w.n + j]);
  return *reinterpret_cast<uint32_t*>(&two);
}

struct KByNStep {
  __device__ void operator()(const Tile& w, int k0, float acc[4]) const {
    uint32_t fa[4];
    load_a(w, k0, fa);
    const uint32_t fb[2] = {column_pair(w, k0 + 2 * w.t, w.col0 + w.g),
                            column_pair(w, k0 + 2 * w.t + 8, w.col0 + w.g)};
    mma_k16(acc, fa, fb);
  }
};

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  launch_warp_tiles<KByNStep, RightStore>(a, b, c, m, n, k, k);
}
