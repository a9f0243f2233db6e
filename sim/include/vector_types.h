// CUDA's vector types with CUDA's sizes and alignments (Linux, CUDA 13), and dim3.
#pragma once

namespace sim::detail {
// CUDA aligns a 2- or 4-vector to its whole size (at most 16 bytes); 1- and 3-vectors keep the
// alignment of their element.
constexpr unsigned vector_alignment(unsigned element_bytes, unsigned n) {
  if (n == 1 || n == 3) return element_bytes;
  return n * element_bytes < 16 ? n * element_bytes : 16;
}
}  // namespace sim::detail

#define SIM_VECTOR_ALIGN(T, n) alignas(::sim::detail::vector_alignment(sizeof(T), n))
#define SIM_VECTOR_TYPES(T, name)         \
  struct SIM_VECTOR_ALIGN(T, 1) name##1 { \
    T x;                                  \
  };                                      \
  struct SIM_VECTOR_ALIGN(T, 2) name##2 { \
    T x, y;                               \
  };                                      \
  struct SIM_VECTOR_ALIGN(T, 3) name##3 { \
    T x, y, z;                            \
  };
// 4-vectors of 8-byte elements: CUDA 13 adds explicitly aligned _16a/_32a variants (and deprecates
// the plain one, which the simulator accepts silently).
#define SIM_WIDE_VECTOR4_TYPES(T, name) \
  struct alignas(16) name##4 {          \
    T x, y, z, w;                       \
  };                                    \
  struct alignas(16) name##4_16a {      \
    T x, y, z, w;                       \
  };                                    \
  struct alignas(32) name##4_32a {      \
    T x, y, z, w;                       \
  };
#define SIM_VECTOR4_TYPE(T, name)         \
  struct SIM_VECTOR_ALIGN(T, 4) name##4 { \
    T x, y, z, w;                         \
  };

SIM_VECTOR_TYPES(signed char, char)
SIM_VECTOR_TYPES(unsigned char, uchar)
SIM_VECTOR_TYPES(short, short)
SIM_VECTOR_TYPES(unsigned short, ushort)
SIM_VECTOR_TYPES(int, int)
SIM_VECTOR_TYPES(unsigned int, uint)
SIM_VECTOR_TYPES(long, long)
SIM_VECTOR_TYPES(unsigned long, ulong)
SIM_VECTOR_TYPES(long long, longlong)
SIM_VECTOR_TYPES(unsigned long long, ulonglong)
SIM_VECTOR_TYPES(float, float)
SIM_VECTOR_TYPES(double, double)
SIM_VECTOR4_TYPE(signed char, char)
SIM_VECTOR4_TYPE(unsigned char, uchar)
SIM_VECTOR4_TYPE(short, short)
SIM_VECTOR4_TYPE(unsigned short, ushort)
SIM_VECTOR4_TYPE(int, int)
SIM_VECTOR4_TYPE(unsigned int, uint)
SIM_VECTOR4_TYPE(float, float)
SIM_WIDE_VECTOR4_TYPES(long, long)
SIM_WIDE_VECTOR4_TYPES(unsigned long, ulong)
SIM_WIDE_VECTOR4_TYPES(long long, longlong)
SIM_WIDE_VECTOR4_TYPES(unsigned long long, ulonglong)
SIM_WIDE_VECTOR4_TYPES(double, double)

#undef SIM_VECTOR_ALIGN
#undef SIM_VECTOR_TYPES
#undef SIM_WIDE_VECTOR4_TYPES
#undef SIM_VECTOR4_TYPE

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
