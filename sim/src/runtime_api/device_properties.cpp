// The device half of the runtime API: one simulated device (core/device_limits.hpp), always device 0.
#include <cstring>

#include "core/device_limits.hpp"
#include "cuda_runtime_api.h"
#include "memory/checker.hpp"
#include "runtime_api/errors.hpp"
#include "runtime_api/function_attributes.hpp"
#include "runtime_api/streams.hpp"

namespace {

namespace device = sim::device;

cudaDeviceProp simulated_device() {
  cudaDeviceProp p{};
  std::strncpy(p.name, device::kName, sizeof p.name - 1);
  p.totalGlobalMem = sim::memory::kDeviceMemoryBytes;
  p.sharedMemPerBlock = device::kSharedPerBlock;
  p.regsPerBlock = device::kRegistersPerBlock;
  p.warpSize = device::kWarpSize;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = device::kMaxThreadsPerBlock;
  for (int i = 0; i < 3; ++i) {
    p.maxThreadsDim[i] = device::kMaxBlockDim[i];
    p.maxGridSize[i] = device::kMaxGridDim[i];
  }
  p.totalConstMem = device::kConstantMemory;
  p.major = device::kComputeMajor;
  p.minor = device::kComputeMinor;
  p.textureAlignment = 512;
  p.multiProcessorCount = device::kMultiprocessors;
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.ECCEnabled = 1;
  p.asyncEngineCount = 2;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = device::kMemoryBusWidthBits;
  p.l2CacheSize = device::kL2CacheBytes;
  p.persistingL2CacheMaxSize = device::kL2CacheBytes * 3 / 4;
  p.maxThreadsPerMultiProcessor = device::kMaxThreadsPerMultiprocessor;
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = device::kSharedPerMultiprocessor;
  p.regsPerMultiprocessor = device::kRegistersPerMultiprocessor;
  p.managedMemory = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = device::kSharedPerBlockOptin;
  p.maxBlocksPerMultiProcessor = device::kMaxBlocksPerMultiprocessor;
  p.accessPolicyMaxWindowSize = 134213632;
  p.reservedSharedMemPerBlock = device::kReservedSharedPerBlock;
  p.clusterLaunch = 1;
  return p;
}

bool valid_device(int d) {
  return d == 0;
}

}  // namespace

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return sim::record_error(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* d) {
  if (!d) return sim::record_error(cudaErrorInvalidValue);
  *d = 0;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int d) {
  return valid_device(d) ? cudaSuccess : sim::record_error(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int d) {
  if (!prop) return sim::record_error(cudaErrorInvalidValue);
  if (!valid_device(d)) return sim::record_error(cudaErrorInvalidDevice);
  *prop = simulated_device();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int d) {
  if (!value) return sim::record_error(cudaErrorInvalidValue);
  if (!valid_device(d)) return sim::record_error(cudaErrorInvalidDevice);
  const cudaDeviceProp p = simulated_device();
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
      *value = p.maxThreadsPerBlock;
      break;
    case cudaDevAttrMaxBlockDimX:
      *value = p.maxThreadsDim[0];
      break;
    case cudaDevAttrMaxBlockDimY:
      *value = p.maxThreadsDim[1];
      break;
    case cudaDevAttrMaxBlockDimZ:
      *value = p.maxThreadsDim[2];
      break;
    case cudaDevAttrMaxGridDimX:
      *value = p.maxGridSize[0];
      break;
    case cudaDevAttrMaxGridDimY:
      *value = p.maxGridSize[1];
      break;
    case cudaDevAttrMaxGridDimZ:
      *value = p.maxGridSize[2];
      break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      *value = static_cast<int>(p.sharedMemPerBlock);
      break;
    case cudaDevAttrTotalConstantMemory:
      *value = static_cast<int>(p.totalConstMem);
      break;
    case cudaDevAttrWarpSize:
      *value = p.warpSize;
      break;
    case cudaDevAttrMaxPitch:
      *value = static_cast<int>(p.memPitch);
      break;
    case cudaDevAttrMaxRegistersPerBlock:
      *value = p.regsPerBlock;
      break;
    case cudaDevAttrClockRate:
      *value = device::kClockKHz;
      break;
    case cudaDevAttrTextureAlignment:
      *value = static_cast<int>(p.textureAlignment);
      break;
    case cudaDevAttrMultiProcessorCount:
      *value = p.multiProcessorCount;
      break;
    case cudaDevAttrIntegrated:
      *value = p.integrated;
      break;
    case cudaDevAttrCanMapHostMemory:
      *value = p.canMapHostMemory;
      break;
    case cudaDevAttrConcurrentKernels:
      *value = p.concurrentKernels;
      break;
    case cudaDevAttrEccEnabled:
      *value = p.ECCEnabled;
      break;
    case cudaDevAttrMemoryClockRate:
      *value = device::kMemoryClockKHz;
      break;
    case cudaDevAttrGlobalMemoryBusWidth:
      *value = p.memoryBusWidth;
      break;
    case cudaDevAttrL2CacheSize:
      *value = p.l2CacheSize;
      break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      *value = p.maxThreadsPerMultiProcessor;
      break;
    case cudaDevAttrAsyncEngineCount:
      *value = p.asyncEngineCount;
      break;
    case cudaDevAttrUnifiedAddressing:
      *value = p.unifiedAddressing;
      break;
    case cudaDevAttrComputeCapabilityMajor:
      *value = p.major;
      break;
    case cudaDevAttrComputeCapabilityMinor:
      *value = p.minor;
      break;
    case cudaDevAttrStreamPrioritiesSupported:
      *value = p.streamPrioritiesSupported;
      break;
    case cudaDevAttrGlobalL1CacheSupported:
      *value = p.globalL1CacheSupported;
      break;
    case cudaDevAttrLocalL1CacheSupported:
      *value = p.localL1CacheSupported;
      break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      *value = static_cast<int>(p.sharedMemPerMultiprocessor);
      break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      *value = p.regsPerMultiprocessor;
      break;
    case cudaDevAttrManagedMemory:
      *value = p.managedMemory;
      break;
    case cudaDevAttrCooperativeLaunch:
      *value = p.cooperativeLaunch;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *value = static_cast<int>(p.sharedMemPerBlockOptin);
      break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      *value = p.maxBlocksPerMultiProcessor;
      break;
    case cudaDevAttrMaxPersistingL2CacheSize:
      *value = p.persistingL2CacheMaxSize;
      break;
    case cudaDevAttrMaxAccessPolicyWindowSize:
      *value = p.accessPolicyMaxWindowSize;
      break;
    case cudaDevAttrReservedSharedMemoryPerBlock:
      *value = static_cast<int>(p.reservedSharedMemPerBlock);
      break;
    case cudaDevAttrClusterLaunch:
      *value = p.clusterLaunch;
      break;
    default:
      return sim::record_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

// Every launch has finished by the time it returns; a GPU's would have now.
cudaError_t cudaDeviceSynchronize() {
  sim::finish_all_streams();
  return sim::record_error(sim::memory::kernel_fault());  // a fault is sticky, as on a GPU
}

cudaError_t cudaDeviceReset() {
  sim::reset_function_attributes();
  sim::memory::clear_kernel_fault();
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) {
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return sim::record_error(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  return cudaDriverGetVersion(version);
}
