// The device functions CUDA's headers declare and clang's own do not (clang 14): atomics, the sm_80
// warp reductions, cache-hinted loads and stores, address-space conversions, __nanosleep, min and max
// over the other arithmetic types. Declared after clang's headers, with the signatures CUDA gives them,
// so that a newer clang which defines some of them itself sees a compatible redeclaration.
#pragma once

#include "crt/sm_70_rt.hpp"

#define PUZZLE_ATOMIC(name, T) __device__ T name(T* address, T val);
#define PUZZLE_ATOMIC_SCOPES(name, T) \
  PUZZLE_ATOMIC(name, T) PUZZLE_ATOMIC(name##_block, T) PUZZLE_ATOMIC(name##_system, T)
PUZZLE_ATOMIC_SCOPES(atomicAdd, int)
PUZZLE_ATOMIC_SCOPES(atomicAdd, unsigned int)
PUZZLE_ATOMIC_SCOPES(atomicAdd, unsigned long long)
PUZZLE_ATOMIC_SCOPES(atomicAdd, float)
PUZZLE_ATOMIC_SCOPES(atomicAdd, double)
#if __CUDA_ARCH__ >= 900  // sm_90's vector adds: nvcc declares them for sm_90 and later only
PUZZLE_ATOMIC_SCOPES(atomicAdd, float2)
PUZZLE_ATOMIC_SCOPES(atomicAdd, float4)
#endif
PUZZLE_ATOMIC_SCOPES(atomicSub, int)
PUZZLE_ATOMIC_SCOPES(atomicSub, unsigned int)
PUZZLE_ATOMIC_SCOPES(atomicExch, int)
PUZZLE_ATOMIC_SCOPES(atomicExch, unsigned int)
PUZZLE_ATOMIC_SCOPES(atomicExch, unsigned long long)
PUZZLE_ATOMIC_SCOPES(atomicExch, float)
PUZZLE_ATOMIC_SCOPES(atomicMin, int)
PUZZLE_ATOMIC_SCOPES(atomicMin, unsigned int)
PUZZLE_ATOMIC_SCOPES(atomicMin, long long)
PUZZLE_ATOMIC_SCOPES(atomicMin, unsigned long long)
PUZZLE_ATOMIC_SCOPES(atomicMax, int)
PUZZLE_ATOMIC_SCOPES(atomicMax, unsigned int)
PUZZLE_ATOMIC_SCOPES(atomicMax, long long)
PUZZLE_ATOMIC_SCOPES(atomicMax, unsigned long long)
PUZZLE_ATOMIC_SCOPES(atomicAnd, int)
PUZZLE_ATOMIC_SCOPES(atomicAnd, unsigned int)
PUZZLE_ATOMIC_SCOPES(atomicAnd, unsigned long long)
PUZZLE_ATOMIC_SCOPES(atomicOr, int)
PUZZLE_ATOMIC_SCOPES(atomicOr, unsigned int)
PUZZLE_ATOMIC_SCOPES(atomicOr, unsigned long long)
PUZZLE_ATOMIC_SCOPES(atomicXor, int)
PUZZLE_ATOMIC_SCOPES(atomicXor, unsigned int)
PUZZLE_ATOMIC_SCOPES(atomicXor, unsigned long long)
PUZZLE_ATOMIC_SCOPES(atomicInc, unsigned int)
PUZZLE_ATOMIC_SCOPES(atomicDec, unsigned int)
#undef PUZZLE_ATOMIC_SCOPES
#undef PUZZLE_ATOMIC
#define PUZZLE_ATOMIC_CAS(T)                                  \
  __device__ T atomicCAS(T* address, T compare, T val);       \
  __device__ T atomicCAS_block(T* address, T compare, T val); \
  __device__ T atomicCAS_system(T* address, T compare, T val);
PUZZLE_ATOMIC_CAS(int)
PUZZLE_ATOMIC_CAS(unsigned int)
PUZZLE_ATOMIC_CAS(unsigned short)
PUZZLE_ATOMIC_CAS(unsigned long long)
#undef PUZZLE_ATOMIC_CAS

__device__ unsigned __reduce_add_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_min_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_max_sync(unsigned mask, unsigned value);
__device__ int __reduce_add_sync(unsigned mask, int value);
__device__ int __reduce_min_sync(unsigned mask, int value);
__device__ int __reduce_max_sync(unsigned mask, int value);
__device__ unsigned __reduce_and_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_or_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_xor_sync(unsigned mask, unsigned value);

__device__ void __nanosleep(unsigned int ns);
__device__ unsigned int __isShared(const void* pointer);
__device__ unsigned int __isGlobal(const void* pointer);
__device__ size_t __cvta_generic_to_shared(const void* pointer);
__device__ size_t __cvta_generic_to_global(const void* pointer);
__device__ void* __cvta_shared_to_generic(size_t address);
__device__ void* __cvta_global_to_generic(size_t address);

// The cache-hinted loads and stores (__ldcs, __stcs, ...) of every type __ldg takes.
#define PUZZLE_CACHE_HINTS(T)            \
  __device__ T __ldcg(const T* p);       \
  __device__ T __ldca(const T* p);       \
  __device__ T __ldcs(const T* p);       \
  __device__ T __ldlu(const T* p);       \
  __device__ T __ldcv(const T* p);       \
  __device__ void __stwb(T* p, T value); \
  __device__ void __stcg(T* p, T value); \
  __device__ void __stcs(T* p, T value); \
  __device__ void __stwt(T* p, T value);
PUZZLE_CACHE_HINTS(char)
PUZZLE_CACHE_HINTS(signed char)
PUZZLE_CACHE_HINTS(short)
PUZZLE_CACHE_HINTS(int)
PUZZLE_CACHE_HINTS(long)
PUZZLE_CACHE_HINTS(long long)
PUZZLE_CACHE_HINTS(unsigned char)
PUZZLE_CACHE_HINTS(unsigned short)
PUZZLE_CACHE_HINTS(unsigned int)
PUZZLE_CACHE_HINTS(unsigned long)
PUZZLE_CACHE_HINTS(unsigned long long)
PUZZLE_CACHE_HINTS(float)
PUZZLE_CACHE_HINTS(double)
PUZZLE_CACHE_HINTS(char2)
PUZZLE_CACHE_HINTS(char4)
PUZZLE_CACHE_HINTS(short2)
PUZZLE_CACHE_HINTS(short4)
PUZZLE_CACHE_HINTS(int2)
PUZZLE_CACHE_HINTS(int4)
PUZZLE_CACHE_HINTS(longlong2)
PUZZLE_CACHE_HINTS(uchar2)
PUZZLE_CACHE_HINTS(uchar4)
PUZZLE_CACHE_HINTS(ushort2)
PUZZLE_CACHE_HINTS(ushort4)
PUZZLE_CACHE_HINTS(uint2)
PUZZLE_CACHE_HINTS(uint4)
PUZZLE_CACHE_HINTS(ulonglong2)
PUZZLE_CACHE_HINTS(float2)
PUZZLE_CACHE_HINTS(float4)
PUZZLE_CACHE_HINTS(double2)
#undef PUZZLE_CACHE_HINTS

// CUDA's min and max, on both sides (clang defines int's for the device only).
__host__ inline int min(int a, int b) {
  return a < b ? a : b;
}
__host__ inline int max(int a, int b) {
  return a > b ? a : b;
}
#define PUZZLE_MIN_MAX(R, A, B)                           \
  __host__ __device__ inline R min(A a, B b) {            \
    return static_cast<R>(a) < static_cast<R>(b) ? a : b; \
  }                                                       \
  __host__ __device__ inline R max(A a, B b) {            \
    return static_cast<R>(a) > static_cast<R>(b) ? a : b; \
  }
PUZZLE_MIN_MAX(unsigned int, unsigned int, unsigned int)
PUZZLE_MIN_MAX(unsigned int, int, unsigned int)
PUZZLE_MIN_MAX(unsigned int, unsigned int, int)
PUZZLE_MIN_MAX(long, long, long)
PUZZLE_MIN_MAX(unsigned long, unsigned long, unsigned long)
PUZZLE_MIN_MAX(unsigned long, long, unsigned long)
PUZZLE_MIN_MAX(unsigned long, unsigned long, long)
PUZZLE_MIN_MAX(long long, long long, long long)
PUZZLE_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
PUZZLE_MIN_MAX(unsigned long long, long long, unsigned long long)
PUZZLE_MIN_MAX(unsigned long long, unsigned long long, long long)
PUZZLE_MIN_MAX(float, float, float)
PUZZLE_MIN_MAX(double, double, double)
PUZZLE_MIN_MAX(double, float, double)
PUZZLE_MIN_MAX(double, double, float)
#undef PUZZLE_MIN_MAX
