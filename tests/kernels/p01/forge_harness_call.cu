// expect: compile_error
// expect-sim-message: `sim::harness::launcher_returned` names the harness's own code
// expect-sim-cases: 1x1 127x129
// Forgery: the launcher calls the simulator's harness API, which the runner exports: launcher_returned()
// opens device memory to host code again, and mempcpy then copies x; the softmax is computed on the host
// and handed to a kernel as its arguments. Refused on the simulator by the symbol its compiled code
// needs (sim::harness is the harness's own code); a GPU build finds no such function and does not link.
#include <cuda_runtime.h>

#include <cstring>

#include "argument_relay.cuh"

namespace sim::harness {
void launcher_returned();
}

static const float* device_x;

static bool read_inputs(float* host, size_t count) {
  sim::harness::launcher_returned();
  mempcpy(host, device_x, count * sizeof(float));
  return true;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  device_x = x;
  softmax_through_arguments(y, rows, cols, read_inputs);
}
