// Puzzle 8's test kernels: a product written differently from the solution (64 x 64 block tiles, 4 warps
// of 32 x 32, b fragments by ldmatrix.x2), with the three things the puzzle is about as parameters:
// the swizzle, how many cp.async groups may still be pending when a stage is read, and .trans on b. The
// PTX wrappers are the fast solutions' (solutions/common/tensor_core_ptx.cuh) but for ldmatrix.x2.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>

#include "../../../solutions/common/tensor_core_ptx.cuh"

namespace tile_gemm {

constexpr int kTile = 64, kStep = 64, kThreads = 128;  // a row of a tile: 64 bf16 = 8 chunks of 16 bytes

template <bool kSwizzle>
__device__ int place(int row, int col) {  // element (row, col) of a 64 x 64 tile
  const int chunk = kSwizzle ? (col / 8) ^ (row % 8) : col / 8;
  return row * kStep + chunk * 8 + col % 8;
}

template <bool kSwizzle>
__device__ void copy_tile(__nv_bfloat16* tile, const __nv_bfloat16* src, int first_row, int k0, int k) {
  for (int i = threadIdx.x; i < kTile * kStep / 8; i += kThreads) {
    const int row = i / 8, col = i % 8 * 8;
    cp_async_16(shared_address(tile + place<kSwizzle>(row, col)),
                src + static_cast<size_t>(first_row + row) * k + k0 + col);
  }
  cp_async_commit();
}

template <int kPending>
__device__ void wait_copies() {
  cp_async_wait<kPending>();
  __syncthreads();
}

template <bool kTrans>
__device__ void ldmatrix_x2(uint32_t& r0, uint32_t& r1, const __nv_bfloat16* row) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(row));
  if (kTrans) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r0), "=r"(r1)
                 : "r"(address));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r0), "=r"(r1)
                 : "r"(address));
  }
}

template <bool kSwizzle, int kPending, bool kTransB>
__global__ void kernel(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int n, int k) {
  __shared__ __align__(128) __nv_bfloat16 tiles[2][2][kTile * kStep];  // [stage][a, b]
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  const int wm = warp / 2 * 32, wn = warp % 2 * 32;  // the warp's 32 x 32 of the block's 64 x 64
  float acc[2][4][4] = {};
  copy_tile<kSwizzle>(tiles[0][0], a, row0, 0, k);
  copy_tile<kSwizzle>(tiles[0][1], b, col0, 0, k);
  for (int step = 0; step < k / kStep; ++step) {
    const int stage = step % 2;
    if ((step + 1) * kStep < k) {
      copy_tile<kSwizzle>(tiles[1 - stage][0], a, row0, (step + 1) * kStep, k);
      copy_tile<kSwizzle>(tiles[1 - stage][1], b, col0, (step + 1) * kStep, k);
      wait_copies<2 * kPending>();  // two groups (a, b) per step
    } else {
      wait_copies<0>();
    }
    for (int kk = 0; kk < kStep; kk += 16) {
      uint32_t fa[2][4];
      for (int i = 0; i < 2; ++i)
        ldmatrix_x4(fa[i], tiles[stage][0] + place<kSwizzle>(wm + 16 * i + lane % 16, kk + lane / 16 * 8));
      for (int j = 0; j < 4; ++j) {
        uint32_t b0, b1;  // lanes 0-15 address rows n0 + l % 8 at k chunks kk and kk + 8
        ldmatrix_x2<kTransB>(b0, b1,
                             tiles[stage][1] + place<kSwizzle>(wn + 8 * j + lane % 8, kk + lane / 8 % 2 * 8));
        for (int i = 0; i < 2; ++i) mma_bf16(acc[i][j], fa[i], b0, b1);
      }
    }
    __syncthreads();  // the stage is refilled two steps on
  }
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) {
      const int row = row0 + wm + 16 * i + lane / 4, col = col0 + wn + 8 * j + lane % 4 * 2;
      for (int e = 0; e < 4; ++e) c[static_cast<size_t>(row + e / 2 * 8) * n + col + e % 2] = acc[i][j][e];
    }
  }
}

template <bool kSwizzle, int kPending, bool kTransB>
void launch(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  kernel<kSwizzle, kPending, kTransB><<<dim3(n / kTile, m / kTile), kThreads>>>(a, b, c, n, k);
}

}  // namespace tile_gemm
