// expect: timeout
// expect-args: --timeout 15
// expect-sim-diagnosis: sim_deadlock
// expect-sim-cases: 1x1
// Bug: the barrier sits inside `if (lane == 0)`. Lanes 1-31 wait in a shuffle for lane 0 while lane 0
// waits at the barrier for them: an H200 hangs (measured), the simulator names who waits where and gives
// the GPU's verdict, a timeout, at once.
#include "reduce.cuh"

__device__ float block_sum_divergent(float v, float* partial) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  v = warp_sum(v);
  if (lane == 0) {
    partial[warp] = v;
    __syncthreads();  // only lane 0 of each warp gets here
  }
  v = warp_sum(lane < warps ? partial[lane] : 0.0f);
  __syncthreads();
  return v;
}

__global__ void softmax_divergent(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, block_sum_divergent);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_divergent<<<rows, 512>>>(x, y, cols);
}
