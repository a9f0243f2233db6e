// expect: compile_error
// expect-message: refused: line 11: `puzzle` names the harness's own code
// Forgery: the launcher calls the harness's float64 reference (declared by hand). The check of the
// file refuses it before it is built; were it built, the reference would not link into the child
// (or would need x on the host, which is refused).
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

namespace puzzle {
void softmax_row(const float* x, int64_t n, double* y);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  std::vector<double> out(cols);
  puzzle::softmax_row(x, cols, out.data());
  cudaMemset(y, 0, sizeof(float) * rows * cols);
}
