// expect: compile_error
// expect-message: refused: line 11: `fopen` reads or writes files
// Forgery: a static constructor registers an atexit hook that appends "done" records for every case
// to the progress file. Refused before it is built (the constructor, atexit, fopen are each named).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

static void append_done_records() {
  FILE* progress = fopen("progress.jsonl", "a");
  for (int i = 0; i < 32; ++i) fprintf(progress, "{\"case\":%d,\"event\":\"done\"}\n", i);
  fclose(progress);
}

__attribute__((constructor)) static void install() {
  atexit(append_done_records);
}

__global__ void nothing(float*) {}

void row_softmax(const float*, float* y, int, int) {
  nothing<<<1, 1>>>(y);
}
