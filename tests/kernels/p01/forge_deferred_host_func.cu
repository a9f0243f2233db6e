// expect: compile_error
// expect-message: refused: line 17: `cudaLaunchHostFunc` runs host code after the launcher returns
// Forgery: the launcher returns at once and a host function queued on the stream writes y later,
// after the harness has (it hopes) stopped looking.
#include <cuda_runtime.h>

#include <vector>

static std::vector<float> late_values;

static void CUDART_CB write_later(void* y) {
  cudaMemcpy(y, late_values.data(), late_values.size() * sizeof(float), cudaMemcpyHostToDevice);
}

void row_softmax(const float*, float* y, int rows, int cols) {
  late_values.assign(static_cast<size_t>(rows) * cols, 1.0f / cols);
  cudaLaunchHostFunc(nullptr, write_later, y);
}
