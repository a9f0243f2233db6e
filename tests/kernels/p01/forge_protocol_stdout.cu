// expect: failed
// expect-diagnosis: unwritten_elements
// expect-message: never written
// expect-sim-cases: 1x1
// Forgery: protocol lines printed on stdout, sealed-looking, instead of computing anything. Stdout is
// the learner's; the harness reads its records from elsewhere and sees y never written.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void nothing(float*) {}

void row_softmax(const float*, float* y, int, int) {
  nothing<<<1, 1>>>(y);
  for (int i = 0; i < 32; ++i) {
    std::printf("{\"case\":%d,\"event\":\"done\",\"kernel_launches\":1,\"seq\":%d}\t0123456789abcdef\n", i,
                i);
  }
}
