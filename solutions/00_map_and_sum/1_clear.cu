// Puzzle 0 · Warm-up: a map and a block sum — version 1: clear.
// The spec is in the stub, 00_map_and_sum.cu; the pictures are on the puzzle's page.
//
// One thread per element, one block of 256 threads per chunk. Each thread computes exp of its element
// and stores it (the guard keeps threads past the end out); the block then adds its 256 values by a tree
// in shared memory, halving the number of busy threads at each step, with a barrier between steps.
#include <cuda_runtime.h>

constexpr int kBlock = 256;  // threads per block = elements per chunk of sums

__global__ void map_and_sum_kernel(const float* x, float* y, float* sums, int n) {
  __shared__ float part[kBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * kBlock + t;  // this thread's element
  float value = 0.0f;                     // past the end: adds nothing to the sum
  if (i < n) {
    value = expf(x[i]);
    y[i] = value;
  }
  part[t] = value;
  __syncthreads();  // all 256 values are in part[] before anyone reads another thread's
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (t < stride) part[t] += part[t + stride];
    __syncthreads();  // this step's sums are written before the next step reads them
  }
  if (t == 0) sums[blockIdx.x] = part[0];
}

void map_and_sum(const float* x, float* y, float* sums, int n) {
  const int blocks = (n + kBlock - 1) / kBlock;  // rounded up: the last block may be partly past the end
  map_and_sum_kernel<<<blocks, kBlock>>>(x, y, sums, n);
}
