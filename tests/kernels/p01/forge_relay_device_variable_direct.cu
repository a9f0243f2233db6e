// expect: failed
// expect-sim-diagnosis: no_device_work
// expect-sim-message: refused: line 35 of .*: read of 4 bytes at staged\[0\] in host code
// expect-sim-cases: 1x1
// expect-args: --case 1x1 --case 127x129
// (on a GPU its host loops over the large cases outlast the 10 s timeout: 0 points either way)
// Forgery: the relay through __device__ variables that host code reads and writes directly, with no
// copy: a kernel copies x into `staged`, host code computes the softmax of `staged` into `answer`, and a
// kernel copies `answer` into y. On a GPU host code reaches only its own copies of the two arrays (zeros,
// then what it wrote), so the kernels never see the answer: y is wrong. The simulator refuses host
// code's reads of `staged`.
#include <cuda_runtime.h>

#include <algorithm>

#include "relay.cuh"

constexpr size_t kChunk = 1 << 16;
__device__ float staged[kChunk];
__device__ float answer[kChunk];

__global__ void stage(const float* x, size_t n) {
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) staged[i] = x[i];
}
__global__ void unstage(float* y, size_t n) {
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) y[i] = answer[i];
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  const int rows_per_chunk = std::max<int>(1, kChunk / cols);
  for (int r0 = 0; r0 < rows; r0 += rows_per_chunk) {
    const size_t n = static_cast<size_t>(std::min(rows_per_chunk, rows - r0)) * cols;
    stage<<<1, 256>>>(x + static_cast<size_t>(r0) * cols, n);
    cudaDeviceSynchronize();
    for (size_t i = 0; i < n; ++i) answer[i] = staged[i];
    softmax_rows_on_host(answer, n / cols, cols);
    unstage<<<1, 256>>>(y + static_cast<size_t>(r0) * cols, n);
    cudaDeviceSynchronize();
  }
}
