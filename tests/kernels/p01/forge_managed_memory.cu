// expect: compile_error
// expect-message: (`__cudaRegisterManagedVar` gives kernels host memory)|(sim_error_managed)
// Forgery: a __managed__ array, which kernels and host code both read and write, as the relay: a kernel
// copies x into it, the host computes the softmax there, and a kernel copies it into y. The qualifier is
// pasted together by a macro, past the check of the source; on a GPU the compiled code still registers a
// managed variable, which is refused before it is linked, and the simulator does not compile it.
#include <cuda_runtime.h>

#include <algorithm>

#include "relay.cuh"

#define PASTE(a, b) a##b

constexpr size_t kChunk = 1 << 16;
__device__ PASTE(__manag, ed__)
float relay[kChunk];

void row_softmax(const float* x, float* y, int rows, int cols) {
  const int rows_per_chunk = std::max<int>(1, kChunk / cols);
  for (int r0 = 0; r0 < rows; r0 += rows_per_chunk) {
    const size_t n = static_cast<size_t>(std::min(rows_per_chunk, rows - r0)) * cols;
    copy<<<1, 256>>>(x + static_cast<size_t>(r0) * cols, relay, n);
    cudaDeviceSynchronize();
    softmax_rows_on_host(relay, n / cols, cols);
    copy<<<1, 256>>>(relay, y + static_cast<size_t>(r0) * cols, n);
  }
}
