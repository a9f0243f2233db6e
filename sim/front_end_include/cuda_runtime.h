// CUDA's runtime header as clang's CUDA mode sees it where nvcc is not installed
// (harness/cli/src/compile/cuda_front_end.cpp: force-included, device side only, syntax only). Clang
// ships the device functions (its __clang_cuda_*.h, over libdevice's declarations) but not CUDA's
// headers: these declare the rest, with CUDA's __host__/__device__ sides, so that what a GPU build
// accepts is accepted here and a call to the wrong side is not. Declarations suffice: nothing is linked.
#pragma once

#define CUDA_VERSION 13000
#define CUDART_VERSION 13000

// Before <cmath>, which they overload on the device side.
#include <__clang_cuda_math_forward_declares.h>

// libstdc++ avoids __float128, which the device lacks, where __CUDACC__ is defined (and nvcc defines it).
#define __CUDACC__
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
// A __device__ variable, to device code (clang 14 ignores `managed` in CUDA).
#define __managed__ __attribute__((device))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#if __clang_major__ < 15  // clang 15 made it a keyword; <memory> and the like undefine it meanwhile
#define __noinline__ __attribute__((noinline))
#endif
#if __has_attribute(grid_constant)
#define __grid_constant__ __attribute__((grid_constant))
#else
#define __grid_constant__  // clang 14: a const kernel parameter is what nvcc checks it for
#endif
#define CUDART_CB

#include <__clang_cuda_builtin_vars.h>

#include "vector_types.h"

// Clang declares the built-in variables' conversions; CUDA's headers define them.
#define PUZZLE_BUILTIN_CONVERSIONS(T)           \
  __device__ inline T::operator dim3() const {  \
    return dim3(x, y, z);                       \
  }                                             \
  __device__ inline T::operator uint3() const { \
    return {x, y, z};                           \
  }
PUZZLE_BUILTIN_CONVERSIONS(__cuda_builtin_threadIdx_t)
PUZZLE_BUILTIN_CONVERSIONS(__cuda_builtin_blockIdx_t)
PUZZLE_BUILTIN_CONVERSIONS(__cuda_builtin_blockDim_t)
PUZZLE_BUILTIN_CONVERSIONS(__cuda_builtin_gridDim_t)
#undef PUZZLE_BUILTIN_CONVERSIONS

#include "cuda_runtime_api.h"
#include "vector_functions.h"

typedef uint32_t cuuint32_t;  // __clang_cuda_intrinsics.h's shared-memory pointer
typedef uint64_t cuuint64_t;

// In this order, which clang's own __clang_cuda_runtime_wrapper.h follows.
// clang-format off
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>
// clang-format on

#include "device_functions.h"

extern "C" {
__device__ int vprintf(const char*, const char*);
__device__ int printf(const char*, ...);
__device__ void free(void*) __attribute__((nothrow));
__device__ void* malloc(size_t) __attribute__((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char* message, const char* file, unsigned line, const char* function,
                             size_t char_size);
__device__ static inline void __assert_fail(const char* message, const char* file, unsigned line,
                                            const char* function) {
  __assertfail(message, file, line, function, sizeof(char));
}
}
namespace std {
__device__ static inline void free(void* p) {
  ::free(p);
}
__device__ static inline void* malloc(size_t size) {
  return ::malloc(size);
}
}  // namespace std

// Device-side new and delete, placement new included, as CUDA has them.
__device__ void* operator new(size_t);
__device__ void* operator new[](size_t);
__device__ void operator delete(void*) noexcept;
__device__ void operator delete[](void*) noexcept;
__device__ void operator delete(void*, size_t) noexcept;
__device__ void operator delete[](void*, size_t) noexcept;
__device__ inline void* operator new(size_t, void* p) noexcept {
  return p;
}
__device__ inline void* operator new[](size_t, void* p) noexcept {
  return p;
}
