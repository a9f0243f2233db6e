// Puzzle 0 · Warm-up: a map and a block sum
// Guide: puzzles/00_map_and_sum/README.md    Check: ./puzzle check 0     Hints: ./puzzle hint 0
//
// Spec. x and y hold n floats, sums holds (n + 255) / 256 floats (all on the device). Write
//
//     y[i]    = exp(x[i])                                  for every 0 <= i < n
//     sums[b] = y[256 b] + y[256 b + 1] + ... + y[256 b + 255]   (only the i < n of the last chunk)
//
// In PyTorch:
//     y = x.exp()
//     sums = torch.nn.functional.pad(y, (0, -len(y) % 256)).view(-1, 256).sum(dim=1)
//
// Two steps, each checked on its own buffer: do step 1 first (`./puzzle check 0` says when y is right),
// then step 2. Sizes: any 1 <= n <= 2^26. n is rarely a multiple of the block size: the threads past the
// end must neither read x nor write y.
//
// Budgets. Lines: roughly 30 for kernel + launcher. Memory traffic: read x once, write y and sums once
// (8 bytes per element, and 4 per chunk).
//
// You choose grid and block in the launcher below (blocks of 256 threads make block b chunk b). Its
// signature is fixed: the harness calls it with device pointers and checks y and sums.
#include <cuda_runtime.h>

__global__ void map_and_sum_kernel(const float* x, float* y, float* sums, int n) {
  // TODO step 1: i = this thread's element; if it is inside the array, y[i] = expf(x[i]).
  // TODO step 2: add the block's 256 values (0 past the end) in shared memory; thread 0 writes
  //              sums[blockIdx.x].
}

// The launcher may copy data it made to the device, but no data leaves the device: a copy from
// the device to the host, or host memory a kernel can reach, is refused (docs/grading.md).
void map_and_sum(const float* x, float* y, float* sums, int n) {
  // TODO: choose a grid that covers all n elements, then launch:
  //   map_and_sum_kernel<<<grid, block>>>(x, y, sums, n);
}
