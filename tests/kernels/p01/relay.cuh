// What the forgeries that relay the inputs to the host share: a kernel that copies, and the softmax of
// rows computed by host code. Not a test kernel itself.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

__global__ void copy(const float* from, float* to, size_t n) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x)
    to[i] = from[i];
}

inline void softmax_rows_on_host(float* rows, size_t count, int cols) {
  for (float* row = rows; row < rows + count * cols; row += cols) {
    float m = -INFINITY, s = 0.0f;
    for (int c = 0; c < cols; ++c) m = std::fmax(m, row[c]);
    for (int c = 0; c < cols; ++c) s += std::exp(row[c] - m);
    for (int c = 0; c < cols; ++c) row[c] = std::exp(row[c] - m) / s;
  }
}
