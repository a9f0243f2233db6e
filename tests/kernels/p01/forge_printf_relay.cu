// expect: failed
// expect-diagnosis: unwritten_elements
// expect-sim-cases: 1x1 127x129
// expect-args: --no-api-check
// Forgery: kernels print x with printf, host code reads the text back from stdout's buffer through glibc's
// FILE (stdout, fflush and the FILE's own fields), computes the softmax and hands it to a kernel as its
// arguments. The check of the file refuses the FILE's fields (`_IO_write_base`); this test turns it off to
// reach the defence at run time: the runner makes stdout unbuffered before it loads the file's code, so
// the buffer holds nothing to read back, and the launcher finds no inputs and writes nothing.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "argument_relay.cuh"

constexpr size_t kLines = 64;  // values printed at a time: their text fits in stdout's buffer

__global__ void print_values(const float* x, size_t at, size_t n) {
  for (size_t i = 0; i < n; ++i) printf("%a\n", x[at + i]);
}

static const float* device_x;

static bool read_inputs(float* host, size_t count) {
  for (size_t at = 0; at < count; at += kLines) {
    const size_t n = count - at < kLines ? count - at : kLines;
    std::fflush(stdout);  // stdout's buffer empty, then the kernel's lines in it
    print_values<<<1, 1>>>(device_x, at, n);
    cudaDeviceSynchronize();
    const std::string text(stdout->_IO_write_base, stdout->_IO_write_ptr);
    const char* next = text.c_str();
    for (size_t i = 0; i < n; ++i) {
      char* end = nullptr;
      host[at + i] = std::strtof(next, &end);
      if (end == next) return false;
      next = end;
    }
  }
  return true;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  device_x = x;
  softmax_through_arguments(y, rows, cols, read_inputs);
}
