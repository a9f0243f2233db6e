// expect: compile_error
// expect-gpu: failed
// expect-args: --no-api-check
// expect-message: (refused: line 1 of the progress file: a line the harness did not write)|(asm .syscall. is not modelled)
// Forgery: a static object's constructor, which runs before the harness's main(), writes "done" records
// for every case into the progress file, with raw system calls (no API the check of the file knows),
// then the kernel writes nothing. The records carry no valid seal: the run is refused.
// On the simulator the raw system calls are refused before anything runs: their inline asm is not
// modelled (a compile error that names it).
#include <cuda_runtime.h>

#include "forge_syscalls.cuh"

namespace {
struct EarlyRecords {
  EarlyRecords() {
    const int fd = forge::open_progress_file();
    for (int i = 0; i < 32; ++i) {
      char line[160];
      const int n = forge::format_done(line, i, i);
      forge::sys(1, fd, reinterpret_cast<long>(line), n);  // write
    }
    forge::sys(3, fd, 0, 0);  // close
  }
} early_records;
}  // namespace

__global__ void nothing(float*) {}

void row_softmax(const float*, float* y, int, int) {
  nothing<<<1, 1>>>(y);
}
