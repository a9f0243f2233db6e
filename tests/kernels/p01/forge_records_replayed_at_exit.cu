// expect: compile_error
// expect-args: --no-api-check
// expect-message: (asm .syscall. is not modelled)|(`syscall` is a system call)
// Forgery: a static object whose destructor, after the harness's main() has returned, replays the
// genuine, sealed lines of the progress file once more (as an attack on a parent that keeps the last
// record of a case would). Each line's seal covers its sequence number, and nothing may follow the
// run's end line: the replay voids the run, right kernel included.
// The raw system calls are refused before anything runs: on the simulator their inline asm is not
// modelled, and on both backends the compiled code's system call instructions are refused.
#include "forge_syscalls.cuh"
#include "reduce.cuh"

namespace {
struct Replay {
  ~Replay() {
    static char text[1 << 20];
    const int in = forge::open_progress_file(0);  // O_RDONLY
    long size = 0;
    for (long n; (n = forge::sys(0, in, reinterpret_cast<long>(text + size), sizeof text - size)) > 0;)
      size += n;
    forge::sys(3, in, 0, 0);
    const int out = forge::open_progress_file();
    forge::sys(1, out, reinterpret_cast<long>(text), size);
    forge::sys(3, out, 0, 0);
  }
} replay;
}  // namespace

__global__ void softmax_rows(const float* x, float* y, int cols) {
  __shared__ float scratch[32], partial[32];
  softmax_block_row(x, y, cols, scratch, partial, [](float v, float* p) { return block_sum(v, p); });
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_rows<<<rows, 256>>>(x, y, cols);
}
