// Row softmax as a learner might write it: one block per row, warp shuffles inside each warp and a
// shared-memory reduction across warps. Comments that mention __shared__ float x[4]; or
// kernel<<<grid, block>>>(args) must come through untouched.
#include <cuda_runtime.h>

#include <cfloat>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarp = 32;

template <class Op>
__device__ float warp_reduce(float v, Op op) {
  for (int offset = kWarp / 2; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(kFullMask, v, offset));
  return v;
}

// Every thread of the block gets the reduction of all the block's values.
template <int BLOCK, class Op>
__device__ float block_reduce(float v, Op op) {
  static_assert(BLOCK % kWarp == 0, "whole warps only");
  __shared__ float partial[BLOCK > kWarp ? BLOCK / kWarp : 1];
  __shared__ float result;
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  v = warp_reduce(v, op);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < BLOCK / kWarp ? partial[lane] : partial[0];
    v = warp_reduce(v, op);
    if (lane == 0) result = v;
  }
  __syncthreads();
  return result;
}

}  // namespace

template <int BLOCK>
__global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
  const float* row = x + blockIdx.x * static_cast<size_t>(cols);
  float* out = y + blockIdx.x * static_cast<size_t>(cols);
  auto max_op = [](float a, float b) { return fmaxf(a, b); };
  auto sum_op = [](float a, float b) { return a + b; };

  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += BLOCK) m = fmaxf(m, row[c]);
  m = block_reduce<BLOCK>(m, max_op);

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) s += expf(row[c] - m);
  s = block_reduce<BLOCK>(s, sum_op);

  for (int c = threadIdx.x; c < cols; c += BLOCK) out[c] = expf(row[c] - m) / s;
}

// Keeps the row in dynamic shared memory so that it is read from global memory once.
__global__ void softmax_cached_kernel(const float* x, float* y, int cols) {
  extern __shared__ __align__(16) float row_cache[];
  __shared__ volatile float block_max;
  const float* row = x + blockIdx.x * static_cast<size_t>(cols);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) row_cache[c] = row[c];
  __syncthreads();
  if (threadIdx.x == 0) {
    float m = -FLT_MAX;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, row_cache[c]);
    block_max = m;
  }
  __syncthreads();
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += expf(row_cache[c] - block_max);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    y[blockIdx.x * static_cast<size_t>(cols) + c] = expf(row_cache[c] - block_max) / s;
  }
}

void launch_softmax(const float* x, float* y, int rows, int cols, cudaStream_t stream) {
  constexpr int kBlock = 256;
  if (cols * sizeof(float) <= 48 * 1024) {
    softmax_cached_kernel<<<rows, kBlock, cols * sizeof(float), stream>>>(x, y, cols);
  } else {
    softmax_kernel<kBlock><<<dim3(rows), dim3(kBlock), 0, stream>>>(
        x, y,  // the learner split the arguments
        cols);
  }
}
