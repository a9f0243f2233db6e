// expect: compile_error
// expect-message: refused: line 16 of forge_pinned_memory.cu: `cudaMallocHost` gives kernels host memory
// Forgery: pinned host memory, which a kernel of a 64-bit GPU program can read and write, as the relay:
// a kernel copies x into it, the host computes the softmax there, and a kernel copies it into y, with no
// copy the harness could refuse. The API's name is pasted together by a macro, past the check of the
// source; the file's compiled code still calls it, and that is refused before it is linked.
#include <cuda_runtime.h>

#include "relay.cuh"

#define PASTE(a, b) a##b

void row_softmax(const float* x, float* y, int rows, int cols) {
  const size_t n = static_cast<size_t>(rows) * cols;
  void* pinned = nullptr;
  PASTE(cudaMalloc, Host)(&pinned, n * sizeof(float));
  copy<<<256, 256>>>(x, static_cast<float*>(pinned), n);
  cudaDeviceSynchronize();
  softmax_rows_on_host(static_cast<float*>(pinned), rows, cols);
  copy<<<256, 256>>>(static_cast<float*>(pinned), y, n);
}
