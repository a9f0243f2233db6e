// expect: failed
// backends: sim
// expect-sim-finding: shared_uninit_read
// expect-sim-cases: 1x1
// Bug: the second step reads all 32 per-warp slots, but a block of 4 warps wrote only 4 of them. On an
// H100 the unwritten slots happened to hold 0 (measured: every case passes there); the simulator fills
// shared memory with NaN poison, so the sum turns NaN and the read is named.
#include "reduce.cuh"

__device__ float block_sum_reads_all_slots(float v, float* partial) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = warp_sum(partial[lane]);  // missing: lane < warps ? ... : 0
  __syncthreads();
  return v;
}

__global__ void softmax_uninit(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, block_sum_reads_all_slots);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_uninit<<<rows, 128>>>(x, y, cols);
}
