// Puzzle 3 · Online softmax
// Guide: puzzles/03_online_softmax/README.md    Check: ./puzzle check 3     Hints: ./puzzle hint 3
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
// This time, find the max and the sum in ONE pass (Milakov & Gimelshein, "Online normalizer calculation
// for softmax", 2018). Keep a running max m and a running sum s = sum of exp(x - m) over the values seen
// so far; when a value x arrives,
//
//     m_new = max(m, x)
//     s     = s * exp(m - m_new) + exp(x - m_new)      (the old terms were relative to m: rescale them)
//
// Two partial results (m_a, s_a) and (m_b, s_b), say of two threads, combine the same way:
//
//     m = max(m_a, m_b),   s = s_a * exp(m_a - m) + s_b * exp(m_b - m)
//
// Then a second pass writes y = exp(x - m) / s. Careful: while a row has shown only -inf, m = -inf and
// exp(m - m_new) is exp(-inf - -inf) = NaN.
//
// Sizes your code must handle: any rows >= 1; 1 <= cols <= 1,048,576 (4 MiB per row: far more than a
// block can hold, so loop over the row). Rows may contain -inf, even their first thousands of columns;
// every row has at least one finite value.
//
// Budgets. Lines: roughly 50 for kernel + launcher. Memory traffic: read x twice, write y once
// (3 * rows * cols * 4 bytes); puzzle 2 read x three times.
//
// You choose grid, block and shared memory in the launcher below. Its signature is fixed: the harness
// calls it with device pointers and checks y.
#include <cuda_runtime.h>

__global__ void online_softmax_kernel(const float* x, float* y, int rows, int cols) {
  // TODO: each block (or warp: your choice) computes the softmax of one row.
  // 1. each thread: a running (m, s) over its columns     2. combine the threads' (m, s) into the row's
  // 3. y = exp(x - m) / s
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void online_softmax(const float* x, float* y, int rows, int cols) {
  // TODO: choose a grid and a block size, then launch:
  //   online_softmax_kernel<<<grid, block>>>(x, y, rows, cols);
}
