// CUDA's vector types, aligned as CUDA aligns them (sim/include/vector_types.h lists the same ones).
#pragma once

#define PUZZLE_VECTOR_TYPES(T, name, align2, align4) \
  struct name##1 {                                   \
    T x;                                             \
  };                                                 \
  struct __align__(align2) name##2 {                 \
    T x, y;                                          \
  };                                                 \
  struct name##3 {                                   \
    T x, y, z;                                       \
  };                                                 \
  struct __align__(align4) name##4 {                 \
    T x, y, z, w;                                    \
  };
PUZZLE_VECTOR_TYPES(signed char, char, 2, 4)
PUZZLE_VECTOR_TYPES(unsigned char, uchar, 2, 4)
PUZZLE_VECTOR_TYPES(short, short, 4, 8)
PUZZLE_VECTOR_TYPES(unsigned short, ushort, 4, 8)
PUZZLE_VECTOR_TYPES(int, int, 8, 16)
PUZZLE_VECTOR_TYPES(unsigned int, uint, 8, 16)
PUZZLE_VECTOR_TYPES(long, long, 16, 16)
PUZZLE_VECTOR_TYPES(unsigned long, ulong, 16, 16)
PUZZLE_VECTOR_TYPES(long long, longlong, 16, 16)
PUZZLE_VECTOR_TYPES(unsigned long long, ulonglong, 16, 16)
PUZZLE_VECTOR_TYPES(float, float, 8, 16)
PUZZLE_VECTOR_TYPES(double, double, 16, 16)
#undef PUZZLE_VECTOR_TYPES

#define PUZZLE_WIDE_VECTOR4_TYPES(T, name) \
  struct __align__(16) name##4_16a {       \
    T x, y, z, w;                          \
  };                                       \
  struct __align__(32) name##4_32a {       \
    T x, y, z, w;                          \
  };
PUZZLE_WIDE_VECTOR4_TYPES(long, long)
PUZZLE_WIDE_VECTOR4_TYPES(unsigned long, ulong)
PUZZLE_WIDE_VECTOR4_TYPES(long long, longlong)
PUZZLE_WIDE_VECTOR4_TYPES(unsigned long long, ulonglong)
PUZZLE_WIDE_VECTOR4_TYPES(double, double)
#undef PUZZLE_WIDE_VECTOR4_TYPES

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
