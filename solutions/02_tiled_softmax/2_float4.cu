// Puzzle 2 · Tiled softmax — version 2: float4 and loads in flight.
// Over 1_clear.cu: rows whose length is a multiple of 4 are read and written as float4 (a quarter of the
// load instructions for the same bytes), each loop is unrolled 4 times (several loads in flight per
// thread), and the block is only as wide as a short row needs.
// The spec is in the stub, 02_tiled_softmax.cu; the walk-through is the puzzle's docs page.
//
// One block per row, which is up to 1,048,576 floats (4 MiB): far more than a block's registers or
// shared memory. So the block walks the row tile by tile, one tile being blockDim.x vectors, three
// times over:
//   1. m = max over the row               (a running max per thread, then one block reduction)
//   2. s = sum of exp(x - m) over the row (a running sum per thread, then one block reduction)
//   3. y = exp(x - m) / s, tile by tile
// x is read three times and y written once. Rows whose length is a multiple of 4 are read and written
// as float4: a quarter of the load instructions for the same bytes.
#include <cuda_runtime.h>

#include <cmath>

#include "../common/block_reduce.cuh"

namespace {

using namespace reduce;  // Max, Sum, block_reduce, kWarp

constexpr int kMaxThreads = 1024;

// What each pass does with one element (float) or four neighbouring ones (float4).
__device__ float max_of(float v) {
  return v;
}
__device__ float max_of(float4 v) {
  return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
}

__device__ float sum_exp(float v, float m) {
  return expf(v - m);
}
__device__ float sum_exp(float4 v, float m) {
  return expf(v.x - m) + expf(v.y - m) + expf(v.z - m) + expf(v.w - m);
}

__device__ float scaled_exp(float v, float m, float inv_s) {
  return expf(v - m) * inv_s;
}
__device__ float4 scaled_exp(float4 v, float m, float inv_s) {
  return {expf(v.x - m) * inv_s, expf(v.y - m) * inv_s, expf(v.z - m) * inv_s, expf(v.w - m) * inv_s};
}

// Vec is float or float4; a row holds `n` of them. Thread t handles vectors t, t + B, t + 2B, ... of
// each pass (B = blockDim.x): one tile per loop step, each load coalesced across the warp.
template <class Vec>
__global__ void tiled_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
  const size_t row = static_cast<size_t>(blockIdx.x) * cols;
  const Vec* in = reinterpret_cast<const Vec*>(x + row);
  Vec* out = reinterpret_cast<Vec*>(y + row);
  const int n = cols / (sizeof(Vec) / sizeof(float));

  float m = -INFINITY;
#pragma unroll 4  // several independent loads in flight per thread
  for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, max_of(in[i]));
  m = block_reduce(m, Max{}, -INFINITY);

  float s = 0.0f;
#pragma unroll 4
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += sum_exp(in[i], m);
  s = block_reduce(s, Sum{}, 0.0f);

  const float inv_s = 1.0f / s;
#pragma unroll 4
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = scaled_exp(in[i], m, inv_s);
}

template <class Vec>
void launch(const float* x, float* y, int rows, int cols) {
  // Enough whole warps for one vector per thread in a short row, at most 1024 for a long one.
  const int n = cols / (sizeof(Vec) / sizeof(float));
  const int threads = n >= kMaxThreads ? kMaxThreads : (n + kWarp - 1) / kWarp * kWarp;
  tiled_softmax_kernel<Vec><<<rows, threads>>>(x, y, cols);
}

}  // namespace

void tiled_softmax(const float* x, float* y, int rows, int cols) {
  // float4 needs every row to start on a 16-byte boundary: true when cols % 4 == 0 (x and y come from
  // cudaMalloc, which aligns to 256 bytes).
  if (cols % 4 == 0)
    launch<float4>(x, y, rows, cols);
  else
    launch<float>(x, y, rows, cols);
}
