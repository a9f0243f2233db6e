// expect: compile_error
// expect-message: (refused: line 26 of forge_host_callback.cu: `cudaLaunchHostFunc`)|(cudaLaunchHostFunc)
// Forgery: a host function queued on the stream computes y on the host after the launcher has returned,
// when the harness (it hopes) has stopped looking. The API's name is pasted together by a macro, past the
// check of the source; the compiled code still calls it, and that is refused before it is linked. (The
// simulator has no host functions: the file does not build there.)
#include <cuda_runtime.h>

#include <vector>

#define PASTE(a, b) a##b

namespace {
std::vector<float> late_values;

void CUDART_CB write_later(void* y) {
  cudaMemcpy(y, late_values.data(), late_values.size() * sizeof(float), cudaMemcpyHostToDevice);
}
}  // namespace

__global__ void nothing(float*) {}

void row_softmax(const float*, float* y, int rows, int cols) {
  late_values.assign(static_cast<size_t>(rows) * cols, 1.0f / cols);
  nothing<<<1, 1>>>(y);
  PASTE(cudaLaunch, HostFunc)(nullptr, write_later, y);
}
