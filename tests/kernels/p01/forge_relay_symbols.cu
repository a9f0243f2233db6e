// expect: failed
// expect-diagnosis: no_device_work
// expect-message: refused: line 33 of forge_relay_symbols.cu: cudaMemcpyFromSymbol.* copies device memory
// expect-sim-cases: 1x1
// Forgery: the relay through the device with __device__ variables instead of cudaMalloc buffers, a chunk
// of rows at a time: a kernel copies the rows into `staged`, cudaMemcpyFromSymbol brings them to the
// host, which computes their softmax and puts it into `answer` with cudaMemcpyToSymbol, and a kernel
// copies that into y. The copy from the symbol to the host is refused.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

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
  std::vector<float> host(kChunk);
  for (int r0 = 0; r0 < rows; r0 += rows_per_chunk) {
    const size_t n = static_cast<size_t>(std::min(rows_per_chunk, rows - r0)) * cols;
    stage<<<1, 256>>>(x + static_cast<size_t>(r0) * cols, n);
    cudaMemcpyFromSymbol(host.data(), staged, n * sizeof(float));
    softmax_rows_on_host(host.data(), n / cols, cols);
    cudaMemcpyToSymbol(answer, host.data(), n * sizeof(float));
    unstage<<<1, 256>>>(y + static_cast<size_t>(r0) * cols, n);
  }
}
