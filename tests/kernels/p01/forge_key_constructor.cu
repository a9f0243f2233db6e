// expect: failed
// expect-diagnosis: unwritten_elements
// expect-message: the constructor read 0 characters of stdin
// expect-sim-cases: 1x1
// expect-args: --no-api-check
// Forgery: a global object's constructor reads the session key from stdin, where the runner gets it, with
// calls the scan of the source does not know (vscanf, and ungetc on glibc's own stdin object), and pushes
// it back so that the runner starts as usual: with the key, code of the file could seal records of its
// own. The compiled code's symbols name glibc's stdin (`_IO_2_1_stdin_`), which the check of the file
// refuses; this test turns that check off to reach the defence at run time. The runner takes the key and
// closes stdin before it loads the file's code, so the constructor reads nothing; the kernel writes
// nothing, and the case fails.
#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

extern "C" FILE _IO_2_1_stdin_;

namespace {
int scan(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vscanf(format, args);
  va_end(args);
  return n;
}

struct TakeKey {
  char key[64] = {};
  TakeKey() {
    scan("%63s", key);
    ungetc('\n', &_IO_2_1_stdin_);
    for (size_t i = std::strlen(key); i-- > 0;) ungetc(key[i], &_IO_2_1_stdin_);
    std::fprintf(stderr, "the constructor read %zu characters of stdin\n", std::strlen(key));
  }
} take_key;
}  // namespace

__global__ void nothing(float*) {}

void row_softmax(const float*, float* y, int, int) {
  nothing<<<1, 1>>>(y);
}
