// Puzzle 2 · Tiled softmax
// Guide: puzzles/02_tiled_softmax/README.md    Check: ./puzzle check 2     Hints: ./puzzle hint 2
//
// Spec. x and y are row-major matrices of `rows` x `cols` floats (contiguous, on the device).
// Write into y the softmax of each row of x, exactly as in puzzle 1:
//
//     y[r][c] = exp(x[r][c] - m_r) / sum_j exp(x[r][j] - m_r),   m_r = max_j x[r][j]
//
// In PyTorch:
//     def softmax(x):
//         x_max = x.max(dim=-1, keepdim=True)[0]
//         x_exp = (x - x_max).exp()
//         return x_exp / x_exp.sum(dim=-1, keepdim=True)
//
// What changes is the size. Sizes your code must handle: any rows >= 1; 1 <= cols <= 1,048,576, so a
// row (up to 4 MiB) no longer fits in one block's registers or shared memory. A block has to walk the
// row in tiles. Rows may contain -inf, even whole tiles of it; every row has at least one finite value.
//
// The tempting version loops over the tiles once and does puzzle 1 on each tile:
//
//     for (int tile = 0; tile < cols; tile += blockDim.x) {
//       const int c = tile + threadIdx.x;
//       const float v = c < cols ? row_x[c] : -INFINITY;
//       const float m = block_max(v);              // max of THIS tile only
//       const float s = block_sum(expf(v - m));    // sum of THIS tile only
//       if (c < cols) row_y[c] = expf(v - m) / s;
//     }
//
// It is wrong: each tile is divided by its own sum, so each tile sums to 1 and a row of 5 tiles sums to
// 5. The max and the sum must cover the whole row before the first y is written.
//
// Budgets. Lines: roughly 50 for kernel + launcher. Memory traffic: read x 3 times, write y once
// (4 * rows * cols * 4 bytes); puzzle 3 gets it down to 2 reads.
//
// You choose grid, block and shared memory in the launcher below. Its signature is fixed: the harness
// calls it with device pointers and checks y.
#include <cuda_runtime.h>

__global__ void tiled_softmax_kernel(const float* x, float* y, int rows, int cols) {
  // TODO: each block computes the softmax of one row, walking it tile by tile, three times:
  // 1. m = the max of the whole row      2. s = the sum of exp(x - m) over the whole row
  // 3. y = exp(x - m) / s
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void tiled_softmax(const float* x, float* y, int rows, int cols) {
  // TODO: choose a grid and a block size, then launch:
  //   tiled_softmax_kernel<<<grid, block>>>(x, y, rows, cols);
}
