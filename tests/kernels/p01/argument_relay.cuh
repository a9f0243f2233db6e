// What the forgeries that read the inputs on the host share: the softmax computed by host code and handed
// to a kernel as its arguments, a chunk per launch, with no copy at all. Not a test kernel itself.
#pragma once
#include <cuda_runtime.h>

#include <vector>

#include "relay.cuh"

constexpr size_t kArgumentChunk = 1000;  // floats per launch: 4000 bytes of arguments
struct ArgumentChunk {
  float v[kArgumentChunk];
};

__global__ void put_chunk(float* y, size_t at, size_t n, ArgumentChunk chunk) {
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) y[at + i] = chunk.v[i];
}

// y = the softmax of the rows `read_inputs` finds for x, computed on the host.
inline void softmax_through_arguments(float* y, int rows, int cols, bool (*read_inputs)(float*, size_t)) {
  const size_t count = static_cast<size_t>(rows) * cols;
  std::vector<float> host(count);
  if (!read_inputs(host.data(), count)) return;
  softmax_rows_on_host(host.data(), rows, cols);
  for (size_t at = 0; at < count; at += kArgumentChunk) {
    ArgumentChunk chunk;
    const size_t n = count - at < kArgumentChunk ? count - at : kArgumentChunk;
    for (size_t i = 0; i < n; ++i) chunk.v[i] = host[at + i];
    put_chunk<<<1, 256>>>(y, at, n, chunk);
  }
}
