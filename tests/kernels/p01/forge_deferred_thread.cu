// expect: failed
// expect-args: --no-api-check
// expect-message: refused|never written
// expect-sim-cases: 1x1
// Forgery: a kernel that writes nothing, and a detached host thread that copies host-made values into
// y a moment after the launcher returns. Built past the API check (which refuses std::thread) to try
// the copy rules: the copy into an output is refused whenever it comes, and the outputs were read
// when the launcher returned.
#include <cuda_runtime.h>

#include <chrono>
#include <thread>
#include <vector>

__global__ void nothing(float*) {}

void row_softmax(const float*, float* y, int rows, int cols) {
  nothing<<<1, 1>>>(y);
  std::thread([y, n = static_cast<size_t>(rows) * cols, cols] {
    const std::vector<float> uniform(n, 1.0f / cols);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    cudaMemcpy(y, uniform.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  }).detach();
}
