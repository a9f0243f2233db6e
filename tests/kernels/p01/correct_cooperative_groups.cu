// expect: passed
// Correct, written with cooperative groups: the block and its warp tiles are objects, a tile's max is
// cg::reduce with cg::greater (cg::plus for the sum), warp 0 combines with shfl_down and shfl, and the
// last pass runs on tiles made at run time.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 256;

// Every thread of the block gets the block's combination: each warp reduces, warp 0 combines.
template <class Op>
__device__ float block_reduce(const cg::thread_block& block, float v, float identity, Op op) {
  __shared__ float per_warp[kThreads / 32];
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  v = cg::reduce(warp, v, op);
  if (warp.thread_rank() == 0) per_warp[warp.meta_group_rank()] = v;
  block.sync();
  v = warp.thread_rank() < warp.meta_group_size() ? per_warp[warp.thread_rank()] : identity;
  for (int offset = warp.size() / 2; offset > 0; offset /= 2) v = op(v, warp.shfl_down(v, offset));
  v = warp.shfl(v, 0);
  block.sync();  // per_warp is reused by the next call
  return v;
}

__global__ void softmax_cg(const float* x, float* y, int cols) {
  const cg::thread_block block = cg::this_thread_block();
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = block.thread_rank(); c < cols; c += block.size()) m = fmaxf(m, in[c]);
  m = block_reduce(block, m, -INFINITY, cg::greater<float>());
  float s = 0.0f;
  for (int c = block.thread_rank(); c < cols; c += block.size()) s += expf(in[c] - m);
  s = block_reduce(block, s, 0.0f, cg::plus<float>());
  // The write pass by warps made at run time (tiled_partition(block, 32)): each takes 32 columns a step.
  const cg::thread_group warp = cg::tiled_partition(block, 32);
  const int warp_first = block.thread_rank() - warp.thread_rank();
  for (int c = warp_first + warp.thread_rank(); c < cols; c += block.size()) out[c] = expf(in[c] - m) / s;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_cg<<<rows, kThreads>>>(x, y, cols);
}
