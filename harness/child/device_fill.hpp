// Kernels for the GPU runner's own work on its buffers (backend_gpu.cpp's runner_fill and
// runner_count_differences): a large case's buffers are hundreds of megabytes, and building their images
// on the host and copying them over took a tenth of a second each. Elements of 2 or 4 bytes.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace puzzle::child {

cudaError_t launch_fill(void* dst, uint32_t bits, size_t elements, size_t element_bytes);
// Adds to *counter (device memory) the number of elements that differ between a and b.
cudaError_t launch_count_differences(const void* a, const void* b, size_t elements, size_t element_bytes,
                                     unsigned long long* counter);

}  // namespace puzzle::child
