// expect: passed
// Correct, written differently: two kernels, one per step. The map runs a fixed grid of 1024 blocks, each
// thread striding over the array (a grid-stride loop: any n with one launch shape); the sum kernel then
// reads y back, one block per chunk. Right, and it moves 12 bytes per element where one kernel moves 8:
// y is written, then read again.
#include <cuda_runtime.h>

__global__ void exp_kernel(const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = expf(x[i]);
}

__global__ void chunk_sum_kernel(const float* y, float* sums, int n) {
  __shared__ float part[256];
  const int t = threadIdx.x, i = blockIdx.x * 256 + t;
  part[t] = i < n ? y[i] : 0.0f;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (t < stride) part[t] += part[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = part[0];
}

void map_and_sum(const float* x, float* y, float* sums, int n) {
  exp_kernel<<<1024, 256>>>(x, y, n);
  chunk_sum_kernel<<<(n + 255) / 256, 256>>>(y, sums, n);  // after exp_kernel: same stream, in order
}
