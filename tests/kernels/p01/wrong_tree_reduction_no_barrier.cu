// expect: failed
// expect-sim-diagnosis: sim_shared_race
// expect-message: no __syncthreads\(\) separates them
// expect-sim-cases: 1x1
// Bug: a block-wide tree reduction with no barrier between its steps. Its first steps pair threads of
// different warps, its last ones lanes of one warp: the race report must name __syncthreads() at once,
// not __syncwarp(), which would order only the pairs inside a warp (one fix, not two rounds).
#include "reduce.cuh"

__device__ float racy_tree_sum(float v, float* partial) {
  __shared__ float values[256];
  values[threadIdx.x] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) values[threadIdx.x] += values[threadIdx.x + stride];
    // missing: __syncthreads();
  }
  __syncthreads();
  (void)partial;
  return values[0];
}

__global__ void softmax_racy_tree(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, racy_tree_sum);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_racy_tree<<<rows, 256>>>(x, y, cols);
}
