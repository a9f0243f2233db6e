// expect: failed
// expect-sim-diagnosis: sim_shared_race
// expect-sim-cases: 1x1
// Bug: warp 0 reads the per-warp partial sums before the other warps have written them.
#include "reduce.cuh"

__device__ float racy_block_sum(float v, float* partial) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  v = warp_sum(v);
  if (lane == 0) partial[warp] = v;
  // missing: __syncthreads();
  v = warp_sum(lane < warps ? partial[lane] : 0.0f);
  __syncthreads();
  return v;
}

__global__ void softmax_racy(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, racy_block_sum);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_racy<<<rows, 1024>>>(x, y, cols);
}
