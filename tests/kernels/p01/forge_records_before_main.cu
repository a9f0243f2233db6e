// expect: compile_error
// expect-args: --no-api-check
// expect-message: (asm .syscall. is not modelled)|(`syscall` is a system call)
// Forgery: a static object's constructor, which runs when the runner loads the file, writes "done" records
// for every case into the progress file, with raw system calls (no API the check of the file knows),
// then the kernel writes nothing. The records carry no valid seal: the run is refused.
// The raw system calls are refused before anything runs: on the simulator their inline asm is not
// modelled, and on both backends the compiled code's system call instructions are refused.
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
