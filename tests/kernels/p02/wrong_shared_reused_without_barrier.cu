// expect: failed
// backends: sim
// expect-sim-diagnosis: sim_shared_race
// expect-sim-cases: 1x1
// Bug: the max pass and the sum pass share one per-warp array, and the reduction does not end with a
// __syncthreads(). A warp that has finished the max and its share of the sum writes its partial sum
// over its slot while slower warps may still be reading that slot as a partial max. On a GPU the sum
// loop over a long row usually outlasts the reads, so it passes there by luck; the simulator reports
// the race with both lines.
#include "../p01/reduce.cuh"

template <class Op>
__device__ float block_reduce_no_trailing_barrier(float v, float* per_warp, float identity, Op op) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
  v = warp_reduce(v, op);
  if (lane == 0) per_warp[warp] = v;
  __syncthreads();
  return warp_reduce(lane < warps ? per_warp[lane] : identity, op);
  // missing: __syncthreads() before the next pass writes per_warp again
}

__global__ void softmax_racy_passes(const float* x, float* y, int cols) {
  __shared__ float per_warp[32];
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, in[c]);
  m = block_reduce_no_trailing_barrier(m, per_warp, -INFINITY, MaxOp{});
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(in[c] - m);
  s = block_reduce_no_trailing_barrier(s, per_warp, 0.0f, SumOp{});
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = expf(in[c] - m) / s;
}

void tiled_softmax(const float* x, float* y, int rows, int cols) {
  softmax_racy_passes<<<rows, 1024>>>(x, y, cols);
}
