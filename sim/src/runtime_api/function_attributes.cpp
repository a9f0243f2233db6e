#include "runtime_api/function_attributes.hpp"

#include <algorithm>
#include <atomic>

#include "core/device_limits.hpp"
#include "cuda_runtime_api.h"
#include "runtime_api/errors.hpp"

namespace sim {
namespace {
std::atomic<size_t> raised_dynamic_shared{0};  // 0: never set above the default
}  // namespace

size_t max_dynamic_shared_bytes() {
  return std::max(device::kSharedPerBlock, raised_dynamic_shared.load());
}
void reset_function_attributes() {
  raised_dynamic_shared.store(0);
}

}  // namespace sim

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (!func) return sim::record_error(cudaErrorInvalidDeviceFunction);
  switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize: {
      if (value < 0 || static_cast<size_t>(value) > sim::device::kSharedPerBlockOptin) {
        return sim::record_error(cudaErrorInvalidValue);
      }
      size_t raised = sim::raised_dynamic_shared.load();
      while (raised < static_cast<size_t>(value) &&
             !sim::raised_dynamic_shared.compare_exchange_weak(raised, static_cast<size_t>(value))) {
      }
      return cudaSuccess;
    }
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      return value >= -1 && value <= 100 ? cudaSuccess : sim::record_error(cudaErrorInvalidValue);
    case cudaFuncAttributeMax:
      break;
    default:
      return cudaSuccess;  // cluster attributes: launches ignore clusters
  }
  return sim::record_error(cudaErrorInvalidValue);
}

// Static shared memory and registers are unknown before a kernel runs: they read as 0.
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (!attr) return sim::record_error(cudaErrorInvalidValue);
  if (!func) return sim::record_error(cudaErrorInvalidDeviceFunction);
  *attr = cudaFuncAttributes{};
  attr->maxThreadsPerBlock = sim::device::kMaxThreadsPerBlock;
  attr->ptxVersion = sim::device::kComputeMajor * 10 + sim::device::kComputeMinor;
  attr->binaryVersion = attr->ptxVersion;
  attr->maxDynamicSharedSizeBytes = static_cast<int>(sim::max_dynamic_shared_bytes());
  attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache) {
  return func ? cudaSuccess : sim::record_error(cudaErrorInvalidDeviceFunction);
}

// Limited by threads, blocks and shared memory per SM (registers are unknown).
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, const void* func, int block_size,
                                                          size_t dynamic_shared_bytes) {
  namespace device = sim::device;
  if (!num_blocks || block_size <= 0) return sim::record_error(cudaErrorInvalidValue);
  if (!func) return sim::record_error(cudaErrorInvalidDeviceFunction);
  if (block_size > device::kMaxThreadsPerBlock || dynamic_shared_bytes > device::kSharedPerBlockOptin) {
    *num_blocks = 0;
    return cudaSuccess;
  }
  const int warps = (block_size + device::kWarpSize - 1) / device::kWarpSize;
  const int by_threads = device::kMaxThreadsPerMultiprocessor / (warps * device::kWarpSize);
  const auto by_shared = static_cast<int>(device::kSharedPerMultiprocessor /
                                          (dynamic_shared_bytes + device::kReservedSharedPerBlock));
  *num_blocks = std::min({by_threads, by_shared, device::kMaxBlocksPerMultiprocessor});
  return cudaSuccess;
}
