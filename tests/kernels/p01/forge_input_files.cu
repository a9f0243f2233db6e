// expect: compile_error
// expect-message: refused: line [0-9]+ of forge_input_files.cu: `fopen` reads or writes files
// expect-sim-cases: 1x1
// Forgery: host code reads the case's input file from the child's work folder (fopen pasted together by a
// macro, past the scan of the source), computes the softmax itself, and hands the results to a kernel as
// its arguments, a chunk per launch: no copy, and the kernel writes y. Refused: the compiled code needs
// `fopen`, which no macro hides from the linker.
#include <cuda_runtime.h>

#include <cstdio>

#include "argument_relay.cuh"

#define JOIN(a, b) a##b

static bool read_inputs(float* host, size_t count) {
  static char args[4096];
  FILE* f = JOIN(fop, en)("/proc/self/cmdline", "rb");
  if (!f) return false;
  const size_t n = JOIN(fre, ad)(args, 1, sizeof args - 1, f);
  fclose(f);
  size_t at = 0;
  while (at < n && args[at] != '\0') ++at;  // skip argv[0]
  for (int index = 0; index < 256; ++index) {
    char path[4200];
    std::snprintf(path, sizeof path, "%s/case_%d_in_0.bin", args + at + 1, index);
    FILE* in = JOIN(fop, en)(path, "rb");
    if (!in) continue;
    const size_t got = JOIN(fre, ad)(host, sizeof(float), count, in);
    char extra;
    const size_t more = JOIN(fre, ad)(&extra, 1, 1, in);
    fclose(in);
    if (got == count && more == 0) return true;
  }
  return false;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_through_arguments(y, rows, cols, read_inputs);
}
