// expect: failed
// expect-sim-finding: barrier_divergence
// expect-message: threads wait at different __syncthreads\(\)
// expect-sim-cases: 1x1
// Bug: even and odd warps wait at two different __syncthreads() (one in each branch of an if). That is
// undefined behaviour, yet a GPU releases both groups together (one hardware barrier per block) and the
// values come out right, so a GPU alone passes it: `check` also runs the small cases on the simulator,
// which names the two barriers.
#include "reduce.cuh"

__device__ float block_sum_split_barrier(float v, float* partial) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  v = warp_sum(v);
  if (lane == 0) partial[warp] = v;
  if (warp % 2 == 0) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  v = warp_sum(lane < warps ? partial[lane] : 0.0f);
  __syncthreads();
  return v;
}

__global__ void softmax_split_barrier(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, block_sum_split_barrier);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_split_barrier<<<rows, 256>>>(x, y, cols);
}
