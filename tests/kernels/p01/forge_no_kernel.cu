// expect: failed
// expect-diagnosis: no_device_work
// expect-message: refused: your launcher launched no kernel
// expect-sim-cases: 1x1
// Forgery: no kernel at all; the launcher only sets memory.
#include <cuda_runtime.h>

void row_softmax(const float*, float* y, int rows, int cols) {
  cudaMemset(y, 0, sizeof(float) * rows * cols);
}
