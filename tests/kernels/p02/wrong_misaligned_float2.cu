// expect: crashed
// expect-sim-diagnosis: sim_misaligned_access
// expect-sim-cases: 7x17
// Bug: y is written in pairs of columns with one 8-byte float2 store, starting at column 1: the address
// is 4 bytes past an 8-byte boundary. A GPU stops the kernel there (cudaErrorMisalignedAddress); the
// simulator stops the block at the same store and names the line.
#include <cuda_runtime.h>

#include <cmath>
constexpr int kThreads = 256;
__device__ float warp_reduce(float v, bool is_max) {
  for (int o = 16; o > 0; o /= 2) {
    float t = __shfl_xor_sync(0xffffffffu, v, o);
    v = is_max ? fmaxf(v, t) : v + t;
  }
  return v;
}
__device__ float block_reduce(float v, bool is_max) {
  __shared__ float w[kThreads / 32];
  v = warp_reduce(v, is_max);
  if (threadIdx.x % 32 == 0) w[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x % 32 < kThreads / 32 ? w[threadIdx.x % 32] : (is_max ? -INFINITY : 0.0f);
  v = warp_reduce(v, is_max);
  __syncthreads();
  return v;
}
__global__ void k(const float* x, float* y, int cols) {
  const float* rx = x + (size_t)blockIdx.x * cols;
  float* ry = y + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kThreads) m = fmaxf(m, rx[c]);
  m = block_reduce(m, true);
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += kThreads) s += expf(rx[c] - m);
  s = block_reduce(s, false);
  // pairs of columns, stored as float2 at column 2p + 1 (an odd column: 4-byte aligned only)
  for (int p = threadIdx.x; 2 * p + 2 < cols; p += kThreads) {
    const int c = 2 * p + 1;
    *reinterpret_cast<float2*>(ry + c) = make_float2(expf(rx[c] - m) / s, expf(rx[c + 1] - m) / s);
  }
  if (threadIdx.x == 0) {
    ry[0] = expf(rx[0] - m) / s;
    if (cols % 2 == 0) ry[cols - 1] = expf(rx[cols - 1] - m) / s;
  }
}
void tiled_softmax(const float* x, float* y, int rows, int cols) {
  k<<<rows, kThreads>>>(x, y, cols);
}
