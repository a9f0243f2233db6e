// CUDA's __match_*_sync over clang's __match32/__match64 builtins (newer clangs include this header from
// __clang_cuda_intrinsics.h; device_functions.h does for clang 14).
#ifndef __SM_70_RT_HPP__
#define __SM_70_RT_HPP__

#define PUZZLE_MATCHES(T, bits)                                                        \
  __device__ inline unsigned int __match_any_sync(unsigned mask, T value) {            \
    return __match##bits##_any_sync(mask, (unsigned long long)value);                  \
  }                                                                                    \
  __device__ inline unsigned int __match_all_sync(unsigned mask, T value, int* pred) { \
    return __match##bits##_all_sync(mask, (unsigned long long)value, pred);            \
  }
PUZZLE_MATCHES(unsigned int, 32)
PUZZLE_MATCHES(int, 32)
PUZZLE_MATCHES(unsigned long, 64)
PUZZLE_MATCHES(long, 64)
PUZZLE_MATCHES(unsigned long long, 64)
PUZZLE_MATCHES(long long, 64)
#undef PUZZLE_MATCHES
__device__ inline unsigned int __match_any_sync(unsigned mask, float value) {
  return __match32_any_sync(mask, __float_as_uint(value));
}
__device__ inline unsigned int __match_all_sync(unsigned mask, float value, int* pred) {
  return __match32_all_sync(mask, __float_as_uint(value), pred);
}
__device__ inline unsigned int __match_any_sync(unsigned mask, double value) {
  return __match64_any_sync(mask, __double_as_longlong(value));
}
__device__ inline unsigned int __match_all_sync(unsigned mask, double value, int* pred) {
  return __match64_all_sync(mask, __double_as_longlong(value), pred);
}

#endif
