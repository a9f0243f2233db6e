// expect: compile_error
// expect-message: refused: line 15 of forge_syscall_asm.cu: `syscall` is a system call made by the file
// Forgery: a raw system call in inline assembly, its keyword pasted together by a macro so that neither
// the check of the source nor the simulator's translator sees an `asm` statement: the launcher writes a
// done record of its own to stdout (any file descriptor would do). The machine code of the file is
// disassembled before it is linked, and its system call instruction refused, with its line.
#include <cuda_runtime.h>

#define PASTE(a, b) a##b
#define ASSEMBLY PASTE(__as, m__)

namespace {
long raw_call(long number, long a, long b, long c) {
  long result;
  ASSEMBLY volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return result;
}
}  // namespace

__global__ void nothing(float*) {}

void row_softmax(const float*, float* y, int, int) {
  static const char record[] = "{\"case\":0,\"event\":\"done\"}\n";
  raw_call(1, 1, reinterpret_cast<long>(record), sizeof record - 1);
  nothing<<<1, 1>>>(y);
}
