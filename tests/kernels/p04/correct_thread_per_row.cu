// expect: passed
// backends: sim
// Correct for the rows it is meant for, written differently: one thread per row, 256 rows per block.
// Each thread reads its row twice, one element at a time, with the online recurrence. Short rows only:
// a float32 sum added one term at a time over the GPU-only 4x1048576 case is ~2e-3 off, outside the
// tolerance (1e-4), so this kernel runs on the simulator, which skips that case.
#include "online.cuh"

__global__ void softmax_thread_per_row(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;  // no shuffle or barrier follows
  const float* in = x + static_cast<size_t>(row) * cols;
  write_row(in, y + static_cast<size_t>(row) * cols, cols, 0, 1, lane_stats(in, cols, 0, 1));
}

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  softmax_thread_per_row<<<(rows + 255) / 256, 256>>>(x, y, rows, cols);
}
