// expect: failed
// expect-diagnosis: no_device_work
// expect-message: refused: line 22 of forge_relay_scratch.cu: cudaMemcpy.* copies device memory to the host
// expect-sim-cases: 1x1
// Forgery: a relay through the device. A kernel copies x into a scratch buffer; the launcher copies that
// buffer to the host, computes the softmax there, copies it into a second scratch buffer, and a kernel
// copies it into y. Every copy from the device to the host is refused: host code never sees the inputs.
#include <cuda_runtime.h>

#include <vector>

#include "relay.cuh"

void row_softmax(const float* x, float* y, int rows, int cols) {
  const size_t n = static_cast<size_t>(rows) * cols;
  float *staged = nullptr, *answer = nullptr;
  cudaMalloc(&staged, n * sizeof(float));
  cudaMalloc(&answer, n * sizeof(float));
  copy<<<256, 256>>>(x, staged, n);
  cudaDeviceSynchronize();
  std::vector<float> host(n);
  cudaMemcpy(host.data(), staged, n * sizeof(float), cudaMemcpyDeviceToHost);
  softmax_rows_on_host(host.data(), rows, cols);
  cudaMemcpy(answer, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  copy<<<256, 256>>>(answer, y, n);
  cudaFree(staged);
  cudaFree(answer);
}
