// A histogram whose shared bins are declared at namespace scope, as some CUDA code does.
#include <cuda_runtime.h>

namespace histogram {

constexpr int kBins = 64;
__shared__ unsigned int bins[kBins], total;
extern __shared__ float
    weights[];

__global__ void histogram_kernel(const int* values, int n, unsigned int* out) {
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) bins[b] = 0;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    weights[threadIdx.x] = 1.0f;
    atomicAdd(&bins[values[i] % kBins], 1u);
    atomicAdd(&total, 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&out[b], bins[b]);
}

}  // namespace histogram

void launch_histogram(const int* values, int n, unsigned int* out) {
  histogram::histogram_kernel<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(values, n, out);
}
