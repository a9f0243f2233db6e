// expect: failed
// expect-diagnosis: no_device_work
// expect-message: refused: line 18 of forge_host_compute.cu: cudaMemcpy.* copies device memory to the host
// expect-sim-cases: 1x1
// Forgery: the softmax is computed by host loops. A do-nothing kernel is launched so that "no kernel"
// cannot be the reason; the copy of x to the host is what the harness refuses.
#include <cuda_runtime.h>

#include <vector>

#include "relay.cuh"

__global__ void looks_busy() {}

void row_softmax(const float* x, float* y, int rows, int cols) {
  looks_busy<<<1, 32>>>();
  std::vector<float> host(static_cast<size_t>(rows) * cols);
  cudaMemcpy(host.data(), x, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
  softmax_rows_on_host(host.data(), rows, cols);
  cudaMemcpy(y, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
}
