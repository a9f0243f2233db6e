// Puzzle 1 · Row softmax — version 3: a warp per short row.
// Over 2_row_in_registers.cu: a row of at most 1024 columns (a multiple of 4) goes to one warp, four rows
// per block of 128 threads, each lane holding up to 8 float4 (16-byte loads and stores). Both reductions
// are warp shuffles only: no shared memory and no __syncthreads(), so a warp that has its row goes on to
// its exp and stores while others still load. Loads and stores are marked streaming (__ldcs, __stcs: each
// byte is touched once, so L2 may evict it first). Longer rows keep version 2's block per row
// (row_in_registers.cuh). On 4096 x 1024 (16 MB, a pass too short to keep the memory busy) that takes the H200
// from version 2's 60% of copy to 70%, above cudaMemcpy of the same 16 MB (67-68%; puzzle 1's page, "Beside
// PyTorch").
// The spec is in the stub, 01_row_softmax.cu; the walk-through is the puzzle's docs page.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "row_in_registers.cuh"

namespace {

using namespace reduce;  // Max, Sum, warp_reduce, kWarp

constexpr int kVecsPerLane = 8;                         // float4 each: 32 floats per lane
constexpr int kWarpMaxCols = kWarp * 4 * kVecsPerLane;  // 1024
constexpr int kRowsPerBlock = 4;

__global__ void warp_row_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int rows,
                                        int cols) {
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / kWarp;
  if (row >= rows) return;  // a whole warp: no shuffle below is left short of lanes
  const int lane = threadIdx.x % kWarp;
  const auto* row_x = reinterpret_cast<const float4*>(x + static_cast<size_t>(row) * cols);
  auto* row_y = reinterpret_cast<float4*>(y + static_cast<size_t>(row) * cols);
  const int vecs = cols / 4;

  // Lane l owns float4 l, l + 32, ...: each load instruction of the warp reads 512 contiguous bytes.
  float4 v[kVecsPerLane];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < kVecsPerLane; ++i) {
    const int c = lane + i * kWarp;
    v[i] = c < vecs ? __ldcs(row_x + c) : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    m = fmaxf(m, fmaxf(fmaxf(v[i].x, v[i].y), fmaxf(v[i].z, v[i].w)));
  }
  m = warp_reduce(m, Max{});

  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < kVecsPerLane; ++i) {
    v[i] = make_float4(expf(v[i].x - m), expf(v[i].y - m), expf(v[i].z - m), expf(v[i].w - m));
    s += (v[i].x + v[i].y) + (v[i].z + v[i].w);
  }
  s = warp_reduce(s, Sum{});

  const float inv_s = 1.0f / s;
#pragma unroll
  for (int i = 0; i < kVecsPerLane; ++i) {
    const int c = lane + i * kWarp;
    if (c < vecs)
      __stcs(row_y + c, make_float4(v[i].x * inv_s, v[i].y * inv_s, v[i].z * inv_s, v[i].w * inv_s));
  }
}

}  // namespace

void row_softmax(const float* x, float* y, int rows, int cols) {
  // float4 needs every row to start on a 16-byte boundary: cols a multiple of 4, and aligned x and y.
  const bool vectors =
      cols % 4 == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0 && reinterpret_cast<uintptr_t>(y) % 16 == 0;
  if (vectors && cols <= kWarpMaxCols) {
    warp_row_softmax_kernel<<<(rows + kRowsPerBlock - 1) / kRowsPerBlock, kRowsPerBlock * kWarp>>>(x, y, rows,
                                                                                                   cols);
  } else {
    row_in_registers::launch(x, y, rows, cols);
  }
}
