// The CUDA runtime API of the simulator: one simulated H100-like device, synchronous execution.
#pragma once
#include <cstddef>

#include "driver_types.h"
#include "sim/memory_api.h"
#include "vector_types.h"

#define CUDART_VERSION 13000

// ---- errors: CUDA's per-host-thread "last error" ----
cudaError_t cudaGetLastError();     // returns the last error and resets it to cudaSuccess
cudaError_t cudaPeekAtLastError();  // returns it without resetting
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

// ---- device ----
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);

// ---- kernels ----
// The simulator cannot tie a launch to a function pointer: the largest
// cudaFuncAttributeMaxDynamicSharedMemorySize set on any kernel applies to every launch.
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value);
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func);
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache config);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, const void* func, int block_size,
                                                          size_t dynamic_shared_bytes);

template <class T>
cudaError_t cudaFuncSetAttribute(T* func, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(func), attr, value);
}
template <class T>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, T* func) {
  return cudaFuncGetAttributes(attr, reinterpret_cast<const void*>(func));
}
template <class T>
cudaError_t cudaFuncSetCacheConfig(T* func, cudaFuncCache config) {
  return cudaFuncSetCacheConfig(reinterpret_cast<const void*>(func), config);
}
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, T* func, int block_size,
                                                          size_t dynamic_shared_bytes) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks, reinterpret_cast<const void*>(func),
                                                       block_size, dynamic_shared_bytes);
}

// ---- streams and events: work completes before the call that queues it returns ----
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
// Host time between the two records, in milliseconds.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
