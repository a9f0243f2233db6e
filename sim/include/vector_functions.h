// make_int2, make_float4, ...: CUDA's constructors of vector types.
#pragma once
#include "vector_types.h"

#define SIM_MAKE_VECTOR(T, type, ...) inline constexpr type make_##type(__VA_ARGS__)
#define SIM_MAKE_VECTORS(T, name)                   \
  SIM_MAKE_VECTOR(T, name##1, T x) {                \
    return {x};                                     \
  }                                                 \
  SIM_MAKE_VECTOR(T, name##2, T x, T y) {           \
    return {x, y};                                  \
  }                                                 \
  SIM_MAKE_VECTOR(T, name##3, T x, T y, T z) {      \
    return {x, y, z};                               \
  }                                                 \
  SIM_MAKE_VECTOR(T, name##4, T x, T y, T z, T w) { \
    return {x, y, z, w};                            \
  }
#define SIM_MAKE_WIDE_VECTORS(T, name)                  \
  SIM_MAKE_VECTOR(T, name##4_16a, T x, T y, T z, T w) { \
    return {x, y, z, w};                                \
  }                                                     \
  SIM_MAKE_VECTOR(T, name##4_32a, T x, T y, T z, T w) { \
    return {x, y, z, w};                                \
  }

SIM_MAKE_VECTORS(signed char, char)
SIM_MAKE_VECTORS(unsigned char, uchar)
SIM_MAKE_VECTORS(short, short)
SIM_MAKE_VECTORS(unsigned short, ushort)
SIM_MAKE_VECTORS(int, int)
SIM_MAKE_VECTORS(unsigned int, uint)
SIM_MAKE_VECTORS(long, long)
SIM_MAKE_VECTORS(unsigned long, ulong)
SIM_MAKE_VECTORS(long long, longlong)
SIM_MAKE_VECTORS(unsigned long long, ulonglong)
SIM_MAKE_VECTORS(float, float)
SIM_MAKE_VECTORS(double, double)
SIM_MAKE_WIDE_VECTORS(long, long)
SIM_MAKE_WIDE_VECTORS(unsigned long, ulong)
SIM_MAKE_WIDE_VECTORS(long long, longlong)
SIM_MAKE_WIDE_VECTORS(unsigned long long, ulonglong)
SIM_MAKE_WIDE_VECTORS(double, double)

#undef SIM_MAKE_VECTOR
#undef SIM_MAKE_VECTORS
#undef SIM_MAKE_WIDE_VECTORS
