// expect: failed
// expect-diagnosis: no_device_work
// expect-message: refused: .*x.* to the host
// expect-sim-cases: 1x1
// Forgery: the softmax is computed by host loops. A do-nothing kernel is launched so that "no kernel"
// cannot be the reason; the copy of x to the host is what the harness refuses.
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

__global__ void looks_busy() {}

void row_softmax(const float* x, float* y, int rows, int cols) {
  looks_busy<<<1, 32>>>();
  std::vector<float> host(static_cast<size_t>(rows) * cols);
  cudaMemcpy(host.data(), x, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (int r = 0; r < rows; ++r) {
    float* row = host.data() + static_cast<size_t>(r) * cols;
    float m = -INFINITY, s = 0.0f;
    for (int c = 0; c < cols; ++c) m = std::fmax(m, row[c]);
    for (int c = 0; c < cols; ++c) s += std::exp(row[c] - m);
    for (int c = 0; c < cols; ++c) row[c] = std::exp(row[c] - m) / s;
  }
  cudaMemcpy(y, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
}
