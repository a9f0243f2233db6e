// CUDA's runtime API: the simulator's list (sim/include/cuda_runtime_api.h), and the stream capture, graph
// and host-callback calls that the harness refuses with a message of its own. Host functions, but for
// those CUDA declares __cudart_builtin__ (device code may call them too: nvcc compiles such a call).
#pragma once
#include <cstddef>

#include "driver_types.h"
#include "vector_types.h"

__host__ __device__ cudaError_t cudaGetLastError();
__host__ __device__ cudaError_t cudaPeekAtLastError();
__host__ __device__ const char* cudaGetErrorString(cudaError_t error);
__host__ __device__ const char* cudaGetErrorName(cudaError_t error);

__host__ __device__ cudaError_t cudaGetDeviceCount(int* count);
__host__ __device__ cudaError_t cudaGetDevice(int* device);
__host__ cudaError_t cudaSetDevice(int device);
__host__ __device__ cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
__host__ __device__ cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
__host__ __device__ cudaError_t cudaDeviceSynchronize();
__host__ cudaError_t cudaDeviceReset();
__host__ cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
__host__ cudaError_t cudaDriverGetVersion(int* version);
__host__ __device__ cudaError_t cudaRuntimeGetVersion(int* version);

__host__ __device__ cudaError_t cudaMalloc(void** devPtr, size_t size);
__host__ __device__ cudaError_t cudaFree(void* devPtr);
__host__ cudaError_t cudaMallocHost(void** ptr, size_t size);
__host__ cudaError_t cudaMallocHost(void** ptr, size_t size, unsigned int flags);
__host__ cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
__host__ cudaError_t cudaFreeHost(void* ptr);
__host__ __device__ cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags = 1);
__host__ cudaError_t cudaMemGetInfo(size_t* free, size_t* total);
__host__ cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
__host__ __device__ cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                                cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                  size_t height, cudaMemcpyKind kind);
__host__ cudaError_t cudaMemset(void* devPtr, int value, size_t count);
__host__ __device__ cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count,
                                                cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset = 0,
                                          cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol);

template <class T>
__host__ __device__ cudaError_t cudaMalloc(T** devPtr, size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(devPtr), size);
}
template <class T>
__host__ cudaError_t cudaMallocHost(T** ptr, size_t size, unsigned int flags = 0) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
__host__ __device__ cudaError_t cudaMallocManaged(T** devPtr, size_t size, unsigned int flags = 1) {
  return cudaMallocManaged(reinterpret_cast<void**>(devPtr), size, flags);
}
template <class T>
__host__ cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count = sizeof(T),
                                        size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol(static_cast<const void*>(&symbol), src, count, offset, kind);
}
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count = sizeof(T),
                                          size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), count, offset, kind);
}
template <class T>
__host__ cudaError_t cudaGetSymbolAddress(void** devPtr, const T& symbol) {
  return cudaGetSymbolAddress(devPtr, static_cast<const void*>(&symbol));
}

__host__ __device__ cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value);
__host__ __device__ cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func);
__host__ cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache config);
__host__ __device__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks,
                                                                              const void* func,
                                                                              int block_size,
                                                                              size_t dynamic_shared_bytes);
__host__ cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                      cudaStream_t stream);
template <class T>
__host__ __device__ cudaError_t cudaFuncSetAttribute(T* func, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(func), attr, value);
}
template <class T>
__host__ __device__ cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, T* func) {
  return cudaFuncGetAttributes(attr, reinterpret_cast<const void*>(func));
}
template <class T>
__host__ cudaError_t cudaFuncSetCacheConfig(T* func, cudaFuncCache config) {
  return cudaFuncSetCacheConfig(reinterpret_cast<const void*>(func), config);
}
template <class T>
__host__ __device__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, T* func,
                                                                              int block_size,
                                                                              size_t dynamic_shared_bytes) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks, reinterpret_cast<const void*>(func),
                                                       block_size, dynamic_shared_bytes);
}
template <class T>
__host__ cudaError_t cudaLaunchKernel(T* func, dim3 grid, dim3 block, void** args, size_t shared = 0,
                                      cudaStream_t stream = 0) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(func), grid, block, args, shared, stream);
}

__host__ cudaError_t cudaStreamCreate(cudaStream_t* stream);
__host__ __device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
__host__ __device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
__host__ __device__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                                    unsigned int flags = 0);

__host__ cudaError_t cudaEventCreate(cudaEvent_t* event);
__host__ __device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
__host__ __device__ cudaError_t cudaEventDestroy(cudaEvent_t event);
__host__ __device__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventQuery(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

// What clang turns a <<<...>>> launch into (which one depends on the CUDA version it assumes).
__host__ cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);
extern "C" __host__ unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0,
                                                         void* stream = 0);

typedef void (*cudaHostFn_t)(void* userData);
__host__ cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData);

enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphExec_st* cudaGraphExec_t;
__host__ cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
__host__ cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
__host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long flags = 0);
__host__ cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
__host__ cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
__host__ cudaError_t cudaGraphDestroy(cudaGraph_t graph);
