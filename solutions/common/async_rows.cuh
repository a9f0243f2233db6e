// Rows of an [n, D] matrix copied into shared memory by cp.async: what puzzle 5's versions 3 and 4 and
// puzzle 6's version 4 share. A copy goes straight from global to shared memory, 16 bytes at a time,
// without a register on the way; __pipeline_commit() closes a batch and __pipeline_wait_prior(N) waits
// until at most N of this thread's batches are still in flight.
#pragma once
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

namespace {

// Starts copying rows first .. first + kRows - 1 of an [n, D] matrix into a shared tile of rows `stride`
// floats apart, by a block of kThreads; zeros past row n. The caller commits the batch.
template <int D, int kRows, int kThreads>
__device__ void copy_rows_async(float* tile, int stride, const float* src, int first, int n) {
  constexpr int kVectors = D / 4;
  for (int i = threadIdx.x; i < kRows * kVectors; i += kThreads) {
    const int row = i / kVectors, col = i % kVectors * 4;
    float* to = tile + row * stride + col;
    if (first + row < n)
      __pipeline_memcpy_async(to, src + static_cast<size_t>(first + row) * D + col, sizeof(float4));
    else
      *reinterpret_cast<float4*>(to) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
}

}  // namespace
