// Puzzle 2 · Tiled softmax — version 1: clear.
// The spec is in the stub, 02_tiled_softmax.cu; the walk-through is the puzzle's docs page.
//
// One block of 1024 threads per row. A row (up to 1,048,576 floats) no longer fits in the block, so the
// block walks it in tiles of 1024 columns, thread t taking column t of each tile, three times over:
// m = the max of the whole row, s = the sum of exp(x - m) over the whole row, y = exp(x - m) / s.
// Each pass keeps a running value per thread and reduces across the block once, after its last tile.
// x is read three times, y written once.
#include <cuda_runtime.h>

#include <cmath>

constexpr int kThreads = 1024;  // a tile: 1024 consecutive columns, one per thread

// Every lane of the warp gets the max (or the sum) of the 32 lanes' values: a butterfly of shuffles.
__device__ float warp_reduce(float v, bool is_max) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const float other = __shfl_xor_sync(0xffffffffu, v, offset);
    v = is_max ? fmaxf(v, other) : v + other;
  }
  return v;
}

// Every thread of the block gets the max (or the sum) of all the block's values.
__device__ float block_reduce(float v, bool is_max) {
  __shared__ float per_warp[kThreads / 32];
  v = warp_reduce(v, is_max);                                 // each warp on its own ...
  if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = v;  // ... posts one value ...
  __syncthreads();
  v = warp_reduce(per_warp[threadIdx.x % 32], is_max);  // ... and all reduce the 32 posted
  __syncthreads();  // per_warp is reused by the next call: wait until every warp has read it
  return v;
}

__global__ void tiled_softmax_kernel(const float* x, float* y, int cols) {
  const float* row_x = x + static_cast<size_t>(blockIdx.x) * cols;  // block b computes row b
  float* row_y = y + static_cast<size_t>(blockIdx.x) * cols;

  // Pass 1: m = the max of the whole row. Tile by tile, each thread keeps the max of its columns; the
  // block combines them only after the last tile. Not one y may be written before m and s cover the row.
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kThreads) m = fmaxf(m, row_x[c]);
  m = block_reduce(m, true);

  // Pass 2: s = the sum of exp(x - m) over the whole row, the same way. Every term is <= 1.
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += kThreads) s += expf(row_x[c] - m);
  s = block_reduce(s, false);

  // Pass 3: y = exp(x - m) / s, tile by tile.
  for (int c = threadIdx.x; c < cols; c += kThreads) row_y[c] = expf(row_x[c] - m) / s;
}

void tiled_softmax(const float* x, float* y, int rows, int cols) {
  tiled_softmax_kernel<<<rows, kThreads>>>(x, y, cols);  // one block per row
}
