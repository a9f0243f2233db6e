// expect: crashed
// expect-message: ended with exit code 0 during this case
// expect-sim-cases: 1x1
// Forgery: the launcher ends the process (exit code 0) before the harness writes the case's record,
// hoping for an empty, clean run. The check of the file allows exit() (CUDA_CHECK macros call it): the
// runner makes an exit before the case's record a crash of the case.
#include <cuda_runtime.h>

#include <cstdlib>

__global__ void nothing(float*) {}

void row_softmax(const float*, float* y, int, int) {
  nothing<<<1, 1>>>(y);
  cudaDeviceSynchronize();
  std::exit(0);
}
