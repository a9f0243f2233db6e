// expect: failed
// expect-diagnosis: no_device_work
// expect-message: refused: .*from the host into .*y
// expect-sim-cases: 1x1
// Forgery: values made on the host are copied into y through a scratch buffer (host -> scratch, then
// device -> device into y), behind a kernel launch. The copy into the output is refused.
#include <cuda_runtime.h>

#include <vector>

__global__ void looks_busy() {}

void row_softmax(const float*, float* y, int rows, int cols) {
  looks_busy<<<1, 32>>>();
  const std::vector<float> uniform(static_cast<size_t>(rows) * cols, 1.0f / cols);
  const size_t bytes = uniform.size() * sizeof(float);
  float* scratch = nullptr;
  cudaMalloc(&scratch, bytes);
  cudaMemcpy(scratch, uniform.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(y, scratch, bytes, cudaMemcpyDeviceToDevice);
  cudaFree(scratch);
}
