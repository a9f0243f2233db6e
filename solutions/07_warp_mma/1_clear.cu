// Puzzle 7 · A warp of tensor cores — version 1: clear.
// The spec is in the stub, 07_warp_mma.cu; the fragment maps are drawn on the puzzle's docs page.
//
// One warp per 16 x 8 tile of c, its fragments loaded straight from global memory. Each step of 16
// along k is one mma.sync m16n8k16: the warp's 32 lanes hand in their pieces of a (16 x 16) and b
// (8 x 16) and get back their pieces of the 16 x 8 product, added to c's.
#include <cuda_bf16.h>

#include <cstdint>

constexpr int kWarpsPerBlock = 4;  // side by side along n: a block covers 16 rows x 32 columns of c

// c += a * b on the tensor cores: a 16 x 16 (row-major) times b 16 x 8 (column-major), bf16 in, fp32 sums.
__device__ void mma_m16n8k16(float c[4], const uint32_t a[4], const uint32_t b[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Elements k0 and k0 + 1 of a row in one register, k0 in the low half (0 for a row past the matrix).
__device__ uint32_t pair(const __nv_bfloat16* matrix, int row, int k0, int k, bool inside) {
  __nv_bfloat162 two = __floats2bfloat162_rn(0.0f, 0.0f);
  if (inside) two = *reinterpret_cast<const __nv_bfloat162*>(matrix + static_cast<size_t>(row) * k + k0);
  return *reinterpret_cast<uint32_t*>(&two);
}

__global__ void warp_mma_kernel(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n,
                                int k) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;  // the lane's row group (0..7) and its place in it (0..3)
  const int row0 = blockIdx.y * 16;      // the warp's tile of c: rows row0.., columns col0..
  const int col0 = (blockIdx.x * kWarpsPerBlock + warp) * 8;
  const int top = row0 + g, bottom = row0 + g + 8, b_row = col0 + g;  // the rows this lane loads

  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < k; k0 += 16) {
    // a's fragment: rows g and g + 8 of the tile, k pairs 2t and 2t + 8 of this slice of 16.
    const uint32_t fa[4] = {pair(a, top, k0 + 2 * t, k, top < m), pair(a, bottom, k0 + 2 * t, k, bottom < m),
                            pair(a, top, k0 + 2 * t + 8, k, top < m),
                            pair(a, bottom, k0 + 2 * t + 8, k, bottom < m)};
    // b's fragment: column g of the 16 x 8 slice of b^T is row col0 + g of b, k pairs 2t and 2t + 8.
    const uint32_t fb[2] = {pair(b, b_row, k0 + 2 * t, k, b_row < n),
                            pair(b, b_row, k0 + 2 * t + 8, k, b_row < n)};
    mma_m16n8k16(acc, fa, fb);  // every lane takes part, even one whose rows are past m
  }
  // c's fragment: acc[0], acc[1] at row g, columns 2t and 2t + 1; acc[2], acc[3] eight rows below.
  for (int half = 0; half < 2; ++half) {
    const int row = row0 + g + 8 * half;
    for (int e = 0; e < 2; ++e) {
      const int col = col0 + 2 * t + e;
      if (row < m && col < n) c[static_cast<size_t>(row) * n + col] = acc[2 * half + e];
    }
  }
}

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  const dim3 grid((n + 8 * kWarpsPerBlock - 1) / (8 * kWarpsPerBlock), (m + 15) / 16);
  warp_mma_kernel<<<grid, 32 * kWarpsPerBlock>>>(a, b, c, m, n, k);
}
