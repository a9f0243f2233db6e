// expect: failed
// expect-diagnosis: no_device_work
// expect-message: refused: the launcher returned while a kernel it launched on a stream of its own
// expect-sim-cases: 1x1
// Forgery: a right kernel on a stream of its own, which the launcher never waits for: a timing on the
// default stream would not see its work. Its first block waits ~0.1 s on a GPU, so it is still running
// when the launcher returns.
#include "reduce.cuh"

__global__ void softmax_rows_late(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
#ifdef __CUDA_ARCH__
  if (blockIdx.x == 0) {
    for (const long long start = clock64(); clock64() - start < 200000000;) {
    }
  }
#endif
  softmax_block_row(x, y, cols, scratch, partial, [](float v, float* p) { return block_sum(v, p); });
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  static cudaStream_t side = nullptr;
  if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  softmax_rows_late<<<rows, 256, 0, side>>>(x, y, cols);
}
