// expect: failed
// expect-sim-diagnosis: no_device_work
// expect-sim-message: refused: line 37 of .*: read of [0-9]+ bytes at staged\[0\] in host code
// expect-sim-cases: 1x1
// expect-args: --case 1x1 --case 127x129
// (on a GPU its host loops over the large cases outlast the 10 s timeout: 0 points either way)
// Forgery: the relay through a __device__ array that host code copies with std::memcpy, a call into the C
// library rather than loads and stores of its own: a kernel copies x into `staged`, host code copies it
// out, computes the softmax and copies it back, and a kernel copies `staged` into y. On a GPU host code
// reaches only its own copy of the array (zeros, then the answer), so the kernels never see the answer
// and y is wrong; the simulator checks the C library's copies too and refuses this one.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "relay.cuh"

constexpr size_t kChunk = 1 << 16;
__device__ float staged[kChunk];

__global__ void stage(const float* x, size_t n) {
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) staged[i] = x[i];
}
__global__ void unstage(float* y, size_t n) {
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) y[i] = staged[i];
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  const int rows_per_chunk = std::max<int>(1, kChunk / cols);
  std::vector<float> host(kChunk);
  for (int r0 = 0; r0 < rows; r0 += rows_per_chunk) {
    const size_t n = static_cast<size_t>(std::min(rows_per_chunk, rows - r0)) * cols;
    stage<<<1, 256>>>(x + static_cast<size_t>(r0) * cols, n);
    cudaDeviceSynchronize();
    std::memcpy(host.data(), staged, n * sizeof(float));
    softmax_rows_on_host(host.data(), n / cols, cols);
    std::memcpy(staged, host.data(), n * sizeof(float));
    unstage<<<1, 256>>>(y + static_cast<size_t>(r0) * cols, n);
    cudaDeviceSynchronize();
  }
}
