// Puzzle 4 · 2D-blocked softmax
// Guide: puzzles/04_blocked_softmax/README.md    Check: ./puzzle check 4     Hints: ./puzzle hint 4
//
// Spec. x and y are row-major matrices of `rows` x `cols` floats (contiguous, on the device).
// Write into y the softmax of each row of x:
//
//     y[r][c] = exp(x[r][c] - m_r) / sum_j exp(x[r][j] - m_r),   m_r = max_j x[r][j]
//
// In PyTorch:
//     def softmax(x):
//         x_max = x.max(dim=-1, keepdim=True)[0]
//         x_exp = (x - x_max).exp()
//         return x_exp / x_exp.sum(dim=-1, keepdim=True)
//
// The same softmax as puzzles 1-3, for any shape. One block per row wastes the GPU when rows are
// short: a row of 32 floats is a single warp's load, and a million such rows are a million tiny
// blocks. So each block handles a tile of BLOCK_ROWS rows x BLOCK_COLS columns: it loops over the
// columns in steps of BLOCK_COLS, keeping a running max m and sum s for each of its rows (puzzle 3's
// online recurrence: when the max grows from m to m', s becomes s * exp(m - m') + the new terms), then
// a second loop writes y. You choose who owns a row: a warp, part of a warp, a thread.
//
// Sizes your code must handle: any rows >= 1, including millions of short rows (100000 x 32,
// 65536 x 100); 1 <= cols <= 1,048,576, so a long row does not fit in a block and must be looped
// over. Rows may contain -inf (exp gives 0); every row has at least one finite value, but a running
// max can still be -inf, and -inf - (-inf) is NaN.
//
// Budgets. Lines: roughly 60 for kernel + launcher. Memory traffic: read x twice, write y once.
//
// You choose grid, block and shared memory in the launcher below. Its signature is fixed: the harness
// calls it with device pointers and checks y.
#include <cuda_runtime.h>

__global__ void blocked_softmax_kernel(const float* x, float* y, int rows, int cols) {
  // TODO: each block handles BLOCK_ROWS rows. For each of its rows:
  // 1. loop over the columns, BLOCK_COLS at a time, updating the row's running (m, s)
  // 2. combine the partial (m, s) of the threads that share the row
  // 3. loop again: y = exp(x - m) / s
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void blocked_softmax(const float* x, float* y, int rows, int cols) {
  // TODO: choose BLOCK_ROWS, a block size and a grid that covers every row, then launch:
  //   blocked_softmax_kernel<<<grid, block>>>(x, y, rows, cols);
}
