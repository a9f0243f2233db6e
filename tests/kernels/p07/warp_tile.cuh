// What puzzle 7's test kernels share: one warp per 16 x 8 tile of c (the clear solution's plan), with the
// step along k and the store of c as parameters, so that each test kernel changes only its own part.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>

struct Tile {
  const __nv_bfloat16* a;
  const __nv_bfloat16* b;
  float* c;
  int m, n, k;
  int row0, col0;  // the warp's tile of c
  int g, t;        // lane / 4, lane % 4
};

__device__ inline void mma_k16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Elements (row, col) and (row, col + 1) of a row-major matrix in one register; 0 outside it.
__device__ inline uint32_t pair(const __nv_bfloat16* matrix, int row, int col, int row_length, bool inside) {
  __nv_bfloat162 two = __floats2bfloat162_rn(0.0f, 0.0f);
  if (inside)
    two = *reinterpret_cast<const __nv_bfloat162*>(matrix + static_cast<size_t>(row) * row_length + col);
  return *reinterpret_cast<uint32_t*>(&two);
}

// The m16n8k16 fragments of the slice k0 .. k0 + 15, as the PTX ISA lays them out.
__device__ inline void load_a(const Tile& w, int k0, uint32_t fa[4]) {
  const int top = w.row0 + w.g, bottom = top + 8;
  fa[0] = pair(w.a, top, k0 + 2 * w.t, w.k, top < w.m);
  fa[1] = pair(w.a, bottom, k0 + 2 * w.t, w.k, bottom < w.m);
  fa[2] = pair(w.a, top, k0 + 2 * w.t + 8, w.k, top < w.m);
  fa[3] = pair(w.a, bottom, k0 + 2 * w.t + 8, w.k, bottom < w.m);
}
__device__ inline void load_b(const Tile& w, int k0, uint32_t fb[2]) {
  const int row = w.col0 + w.g;
  fb[0] = pair(w.b, row, k0 + 2 * w.t, w.k, row < w.n);
  fb[1] = pair(w.b, row, k0 + 2 * w.t + 8, w.k, row < w.n);
}

struct RightStep {  // one m16n8k16 per slice of 16
  __device__ void operator()(const Tile& w, int k0, float acc[4]) const {
    uint32_t fa[4], fb[2];
    load_a(w, k0, fa);
    load_b(w, k0, fb);
    mma_k16(acc, fa, fb);
  }
};

struct RightStore {  // acc[0], acc[1]: row g, columns 2t, 2t + 1; acc[2], acc[3]: 8 rows below
  __device__ void operator()(const Tile& w, const float acc[4]) const {
    for (int half = 0; half < 2; ++half) {
      for (int e = 0; e < 2; ++e) {
        const int row = w.row0 + w.g + 8 * half, col = w.col0 + 2 * w.t + e;
        if (row < w.m && col < w.n) w.c[static_cast<size_t>(row) * w.n + col] = acc[2 * half + e];
      }
    }
  }
};

constexpr int kWarpsPerBlock = 4;

template <class Step, class Store>
__global__ void warp_tiles(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k,
                           int k_end) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const Tile w{a,
               b,
               c,
               m,
               n,
               k,
               static_cast<int>(blockIdx.y) * 16,
               (static_cast<int>(blockIdx.x) * kWarpsPerBlock + warp) * 8,
               lane / 4,
               lane % 4};
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < k_end; k0 += 16) Step()(w, k0, acc);
  Store()(w, acc);
}

// Launches warp_tiles over the whole of c; `k_end` < k sums only part of k.
template <class Step, class Store>
void launch_warp_tiles(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k,
                       int k_end) {
  const dim3 grid((n + 8 * kWarpsPerBlock - 1) / (8 * kWarpsPerBlock), (m + 15) / 16);
  warp_tiles<Step, Store><<<grid, 32 * kWarpsPerBlock>>>(a, b, c, m, n, k, k_end);
}
