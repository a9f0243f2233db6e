// CUDA's make_<vector> functions, on both sides.
#pragma once
#include "vector_types.h"

#define PUZZLE_MAKE_VECTOR(type, ...) __host__ __device__ inline constexpr type make_##type(__VA_ARGS__)
#define PUZZLE_MAKE_VECTORS(T, name)                \
  PUZZLE_MAKE_VECTOR(name##1, T x) {                \
    return {x};                                     \
  }                                                 \
  PUZZLE_MAKE_VECTOR(name##2, T x, T y) {           \
    return {x, y};                                  \
  }                                                 \
  PUZZLE_MAKE_VECTOR(name##3, T x, T y, T z) {      \
    return {x, y, z};                               \
  }                                                 \
  PUZZLE_MAKE_VECTOR(name##4, T x, T y, T z, T w) { \
    return {x, y, z, w};                            \
  }
PUZZLE_MAKE_VECTORS(signed char, char)
PUZZLE_MAKE_VECTORS(unsigned char, uchar)
PUZZLE_MAKE_VECTORS(short, short)
PUZZLE_MAKE_VECTORS(unsigned short, ushort)
PUZZLE_MAKE_VECTORS(int, int)
PUZZLE_MAKE_VECTORS(unsigned int, uint)
PUZZLE_MAKE_VECTORS(long, long)
PUZZLE_MAKE_VECTORS(unsigned long, ulong)
PUZZLE_MAKE_VECTORS(long long, longlong)
PUZZLE_MAKE_VECTORS(unsigned long long, ulonglong)
PUZZLE_MAKE_VECTORS(float, float)
PUZZLE_MAKE_VECTORS(double, double)
#undef PUZZLE_MAKE_VECTORS
#undef PUZZLE_MAKE_VECTOR
