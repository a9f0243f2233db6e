// The CUDA memory API of the simulator (included by cuda_runtime_api.h). Calls keep CUDA's syntax;
// the trailing std::source_location is filled at the call site so findings name the learner's line.
#pragma once
#include <cstddef>
#include <source_location>
#include <type_traits>

#include "driver_types.h"

#define SIM_CALL_SITE std::source_location where = std::source_location::current()

cudaError_t cudaMalloc(void** devPtr, size_t size, SIM_CALL_SITE);
cudaError_t cudaFree(void* devPtr, SIM_CALL_SITE);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind, SIM_CALL_SITE);
// Streams run in order and the simulator finishes each operation before returning, so the async
// variants are the synchronous ones.
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream = 0, SIM_CALL_SITE);
cudaError_t cudaMemset(void* devPtr, int value, size_t count, SIM_CALL_SITE);
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream = 0, SIM_CALL_SITE);
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemGetInfo(size_t* free, size_t* total);

template <class T>
cudaError_t cudaMalloc(T** devPtr, size_t size, SIM_CALL_SITE) {
  return cudaMalloc(reinterpret_cast<void**>(devPtr), size, where);
}

template <class T>
cudaError_t cudaMallocHost(T** ptr, size_t size, unsigned int /*flags*/ = 0) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}

namespace sim::memory {
// A __constant__ or __device__ variable is an ordinary object in the simulator: the "symbol" is the
// object itself, and its size bounds the copy. sim/translate registers each one, so that kernels may read
// and write it and host code that names it is a finding. Returns true.
bool register_device_variable(const void* variable, size_t bytes, const char* name, bool writable);
cudaError_t copy_to_symbol(void* symbol, size_t symbol_size, const void* src, size_t count, size_t offset,
                           cudaMemcpyKind kind, std::source_location where);
cudaError_t copy_from_symbol(void* dst, const void* symbol, size_t symbol_size, size_t count, size_t offset,
                             cudaMemcpyKind kind, std::source_location where);
}  // namespace sim::memory

namespace sim {
template <class T>
bool register_device_variable(T& variable, const char* name) {
  return memory::register_device_variable(&variable, sizeof(T), name, !std::is_const_v<T>);
}
}  // namespace sim

template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count = sizeof(T), size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice, SIM_CALL_SITE) {
  return sim::memory::copy_to_symbol(const_cast<void*>(static_cast<const void*>(&symbol)), sizeof(T), src,
                                     count, offset, kind, where);
}

template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count = sizeof(T), size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost, SIM_CALL_SITE) {
  return sim::memory::copy_from_symbol(dst, &symbol, sizeof(T), count, offset, kind, where);
}

#undef SIM_CALL_SITE
