// expect: passed
// Correct, written differently: two m16n8k8 per slice of 16 instead of one m16n8k16. Its fragments are
// half as wide along k: a0 = row g, k 2t..2t+1 and a1 = row g + 8; b0 = k 2t..2t+1 of column g.
#include "warp_tile.cuh"

__device__ void mma_k8(float c[4], const uint32_t a[2], uint32_t b) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(b));
}

struct TwoK8Steps {
  __device__ void operator()(const Tile& w, int k0, float acc[4]) const {
    const int top = w.row0 + w.g, bottom = top + 8, b_row = w.col0 + w.g;
    for (int k8 = k0; k8 < k0 + 16; k8 += 8) {
      const uint32_t fa[2] = {pair(w.a, top, k8 + 2 * w.t, w.k, top < w.m),
                              pair(w.a, bottom, k8 + 2 * w.t, w.k, bottom < w.m)};
      mma_k8(acc, fa, pair(w.b, b_row, k8 + 2 * w.t, w.k, b_row < w.n));
    }
  }
};

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  launch_warp_tiles<TwoK8Steps, RightStore>(a, b, c, m, n, k, k);
}
