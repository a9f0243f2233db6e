// expect: crashed
// expect-sim-message: refused: .*kernel write of 4 bytes at host address .*a GPU cannot reach it
// expect-sim-cases: 1x1
// Forgery: the relay through host memory with no copy, through an array on the launcher's stack and a
// static array instead of malloc: a kernel copies a chunk of rows of x into the stack array, host code
// computes their softmax into the static array, and a kernel copies that into y. A GPU without HMM stops
// the kernel at the first host address (cudaErrorIllegalAddress); the simulator refuses it there.
#include <cuda_runtime.h>

#include <algorithm>

#include "relay.cuh"

constexpr size_t kChunk = 1 << 12;
static float answer[kChunk];

void row_softmax(const float* x, float* y, int rows, int cols) {
  float staged[kChunk];
  float* const chunk = staged;
  const int rows_per_chunk = std::max<int>(1, kChunk / cols);
  for (int r0 = 0; r0 < rows; r0 += rows_per_chunk) {
    const size_t n = static_cast<size_t>(std::min(rows_per_chunk, rows - r0)) * cols;
    copy<<<1, 256>>>(x + static_cast<size_t>(r0) * cols, chunk, n);
    cudaDeviceSynchronize();
    std::copy(chunk, chunk + n, answer);
    softmax_rows_on_host(answer, n / cols, cols);
    copy<<<1, 256>>>(answer, y + static_cast<size_t>(r0) * cols, n);
    cudaDeviceSynchronize();
  }
}
