// expect: crashed
// expect-sim-message: that is device memory, which host code cannot dereference
// expect-sim-cases: 1x1 127x129
// Forgery: host code copies x with the C library's mempcpy, whose loads the simulator does not
// instrument (memcpy, memmove and memset reach its checks through --wrap; mempcpy, bcopy, strncpy and
// the like do not), computes the softmax and hands it to a kernel as its arguments. On a GPU the device
// pointer faults in host code; on the simulator device memory is closed to host code while the launcher
// runs, and it faults the same way.
#include <cuda_runtime.h>

#include <cstring>

#include "argument_relay.cuh"

static const float* device_x;

static bool read_inputs(float* host, size_t count) {
  mempcpy(host, device_x, count * sizeof(float));
  return true;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  device_x = x;
  softmax_through_arguments(y, rows, cols, read_inputs);
}
