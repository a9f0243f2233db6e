// What surrounds the main kernel of puzzle 10's fast versions (flash attention backward in bf16): before
// it, D = rowsum(dO * O) and lse log2(e) per query row; after it, dq = bf16(scale * dq_accum). One copy for
// versions 2 to 5 (2_fa2_tiles.cu, wgmma.cuh), which differ only in the main kernel.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "../common/tensor_core_ptx.cuh"

namespace {

constexpr float kLog2e = 1.4426950408889634f;

// D_i = rowsum(dO_i * O_i) and lse_i log2(e) (+inf where lse = -inf): D / 8 lanes per row, 16 bytes each.
template <int D>
__global__ void preprocess_kernel(const __nv_bfloat16* o, const __nv_bfloat16* dout, const float* lse,
                                  float* delta, float* lse_log2, int rows) {
  constexpr int kLanes = D / 8;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / kLanes, part = threadIdx.x % kLanes;
  float sum = 0.0f;
  if (row < rows) {
    // A union, not a cast of &uint4 to bf16 pairs: the simulator's g++ -O2 assumes strict aliasing.
    union Pairs {
      uint4 u;
      __nv_bfloat162 h[4];
    } a, b;
    a.u = *reinterpret_cast<const uint4*>(o + static_cast<size_t>(row) * D + 8 * part);
    b.u = *reinterpret_cast<const uint4*>(dout + static_cast<size_t>(row) * D + 8 * part);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 x = __bfloat1622float2(a.h[j]), y = __bfloat1622float2(b.h[j]);
      sum += x.x * y.x + x.y * y.y;
    }
  }
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (row < rows && part == 0) {
    delta[row] = sum;
    lse_log2[row] = lse[row] == -INFINITY ? INFINITY : lse[row] * kLog2e;
  }
}

__global__ void dq_kernel(const float* dq_accum, __nv_bfloat16* dq, float scale, size_t n) {
  const size_t i = 8 * (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const float4 x = *reinterpret_cast<const float4*>(dq_accum + i),
               y = *reinterpret_cast<const float4*>(dq_accum + i + 4);
  uint4 out;
  out.x = pack_bf16(scale * x.x, scale * x.y), out.y = pack_bf16(scale * x.z, scale * x.w);
  out.z = pack_bf16(scale * y.x, scale * y.y), out.w = pack_bf16(scale * y.z, scale * y.w);
  *reinterpret_cast<uint4*>(dq + i) = out;
}

// Device memory kept from call to call (a workspace, as libraries keep one), grown when a call needs more.
// A cudaMalloc and cudaFree of 138 MB per call cost 0.13-0.30 ms on an H200 (d = 64, n 512: 1.04 ms a
// call with them, 0.90 without) and cudaFree waits for the GPU, so the next call cannot queue behind it.
// nullptr when the GPU has not `count` floats to spare; the next call tries again.
float* workspace_floats(size_t count) {
  static float* kept = nullptr;
  static size_t capacity = 0;
  if (count > capacity) {
    cudaFree(kept);
    capacity = 0;
    if (cudaMalloc(&kept, sizeof(float) * count) != cudaSuccess) {
      kept = nullptr;  // not a block of ours: the next call must not free it
      return nullptr;
    }
    capacity = count;
  }
  return kept;
}

// The launcher around the main kernel: scratch for dq_accum (zeroed), D and lse log2(e); the kernel before;
// main(dq_accum, delta, lse_log2), which launches the main kernel; the kernel after.
template <int D, class Main>
void around_main_kernel(const __nv_bfloat16* o, const float* lse, const __nv_bfloat16* dout,
                        __nv_bfloat16* dq, int rows, float scale, Main main) {
  const size_t elements = static_cast<size_t>(rows) * D;
  // dq_accum (first: 16-byte aligned), D, lse log2(e): rows (d + 2) floats
  float* scratch = workspace_floats(elements + 2 * static_cast<size_t>(rows));
  if (scratch == nullptr) return;  // out of memory: no kernel runs, and the outputs stay unwritten
  float *dq_accum = scratch, *delta = scratch + elements, *lse_log2 = delta + rows;
  cudaMemsetAsync(dq_accum, 0, sizeof(float) * elements);
  constexpr int kRowsPerBlock = 256 / (D / 8);
  preprocess_kernel<D>
      <<<(rows + kRowsPerBlock - 1) / kRowsPerBlock, 256>>>(o, dout, lse, delta, lse_log2, rows);
  main(dq_accum, static_cast<const float*>(delta), static_cast<const float*>(lse_log2));
  dq_kernel<<<(elements / 8 + 255) / 256, 256>>>(dq_accum, dq, scale, elements);
}

}  // namespace
