// expect: passed
// Correct, written differently: blocks hand their results over through global memory, the way CUDA's
// threadFenceReduction sample does. Each block of a row computes its chunk's (m, s) and thread 0 stores
// it, fences (__threadfence) and takes a ticket (atomicAdd on the row's counter); the block that takes
// the last ticket reads every chunk's pair with plain loads and writes the whole row. The fence before
// the ticket orders the pair's store before the ticket, so the last block reads every pair: this is not
// a race, and the simulator must not call it one.
#include "online.cuh"

constexpr int kThreads = 256, kMaxChunks = 32, kMinChunkCols = 2048;

__global__ void chunk_then_last_block(const float* x, float* y, MaxSum* pairs, unsigned* tickets, int cols) {
  __shared__ float warp_m[32], warp_s[32];
  __shared__ bool last;
  const size_t row = static_cast<size_t>(blockIdx.x) * cols;
  const int chunks = gridDim.y, chunk_cols = (cols + chunks - 1) / chunks;
  const int begin = blockIdx.y * chunk_cols, end = min(begin + chunk_cols, cols);
  MaxSum acc;
  for (int c = begin + threadIdx.x; c < end; c += blockDim.x) acc = online_update(acc, x[row + c]);
  acc = block_combine(acc, warp_m, warp_s, online_combine);
  if (threadIdx.x == 0) {
    pairs[blockIdx.x * chunks + blockIdx.y] = acc;
    __threadfence();  // the pair is visible to every block before the ticket is
    last = atomicAdd(&tickets[blockIdx.x], 1u) == static_cast<unsigned>(chunks - 1);
  }
  __syncthreads();
  if (!last) return;
  const int lane = threadIdx.x % 32;
  const MaxSum total =
      warp_combine(lane < chunks ? pairs[blockIdx.x * chunks + lane] : MaxSum{}, online_combine);
  write_softmax_row(x + row, y + row, cols, total);
}

void online_softmax(const float* x, float* y, int rows, int cols) {
  const int chunks = min(kMaxChunks, (cols + kMinChunkCols - 1) / kMinChunkCols);
  MaxSum* pairs = nullptr;
  unsigned* tickets = nullptr;
  cudaMalloc(&pairs, sizeof(MaxSum) * rows * chunks);
  cudaMalloc(&tickets, sizeof(unsigned) * rows);
  cudaMemset(tickets, 0, sizeof(unsigned) * rows);
  chunk_then_last_block<<<dim3(rows, chunks), kThreads>>>(x, y, pairs, tickets, cols);
  cudaFree(pairs);
  cudaFree(tickets);
}
