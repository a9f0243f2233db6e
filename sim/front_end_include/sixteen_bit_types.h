// CUDA's 16-bit floating-point types for cuda_fp16.h and cuda_bf16.h: conversions, arithmetic, comparisons
// and shuffles, all on both sides as in CUDA 13 (sim/include/sim/float16.h has the same list).
#pragma once
#include "vector_types.h"

#define PUZZLE_HD __host__ __device__

struct __half_raw {
  unsigned short x;
};
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};

#define PUZZLE_SIXTEEN_TYPE(NAME, RAW)                       \
  struct __align__(2) NAME {                                 \
    NAME() = default;                                        \
    PUZZLE_HD constexpr NAME(const RAW& raw) : __x(raw.x) {} \
    PUZZLE_HD NAME(float f);                                 \
    PUZZLE_HD NAME(double d);                                \
    PUZZLE_HD NAME(short i);                                 \
    PUZZLE_HD NAME(unsigned short i);                        \
    PUZZLE_HD NAME(int i);                                   \
    PUZZLE_HD NAME(unsigned int i);                          \
    PUZZLE_HD NAME(long i);                                  \
    PUZZLE_HD NAME(unsigned long i);                         \
    PUZZLE_HD NAME(long long i);                             \
    PUZZLE_HD NAME(unsigned long long i);                    \
    PUZZLE_HD NAME& operator=(const RAW& raw);               \
    PUZZLE_HD NAME& operator=(float f);                      \
    PUZZLE_HD NAME& operator=(double d);                     \
    PUZZLE_HD operator RAW() const;                          \
    PUZZLE_HD operator float() const;                        \
    PUZZLE_HD explicit operator bool() const;                \
    PUZZLE_HD explicit operator short() const;               \
    PUZZLE_HD explicit operator unsigned short() const;      \
    PUZZLE_HD explicit operator int() const;                 \
    PUZZLE_HD explicit operator unsigned int() const;        \
    PUZZLE_HD explicit operator long long() const;           \
    PUZZLE_HD explicit operator unsigned long long() const;  \
                                                             \
   protected:                                                \
    unsigned short __x;                                      \
  };
PUZZLE_SIXTEEN_TYPE(__half, __half_raw)
PUZZLE_SIXTEEN_TYPE(__nv_bfloat16, __nv_bfloat16_raw)
#undef PUZZLE_SIXTEEN_TYPE

#define PUZZLE_SIXTEEN_PAIR(NAME, T, RAW)                            \
  struct __align__(4) NAME {                                         \
    T x, y;                                                          \
    NAME() = default;                                                \
    PUZZLE_HD constexpr NAME(const T& a, const T& b) : x(a), y(b) {} \
    PUZZLE_HD NAME(const RAW& raw);                                  \
    PUZZLE_HD NAME& operator=(const RAW& raw);                       \
    PUZZLE_HD operator RAW() const;                                  \
  };
PUZZLE_SIXTEEN_PAIR(__half2, __half, __half2_raw)
PUZZLE_SIXTEEN_PAIR(__nv_bfloat162, __nv_bfloat16, __nv_bfloat162_raw)
#undef PUZZLE_SIXTEEN_PAIR

typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

// T: the scalar, P: its pair, S: the name in CUDA's conversions ("half", "bfloat16").
#define PUZZLE_SIXTEEN_API(T, P, S)                                                              \
  PUZZLE_HD T __float2##S(float f);                                                              \
  PUZZLE_HD T __float2##S##_rn(float f);                                                         \
  PUZZLE_HD T __float2##S##_rz(float f);                                                         \
  PUZZLE_HD T __float2##S##_rd(float f);                                                         \
  PUZZLE_HD T __float2##S##_ru(float f);                                                         \
  PUZZLE_HD T __double2##S(double d);                                                            \
  PUZZLE_HD float __##S##2float(T h);                                                            \
  PUZZLE_HD T __int2##S##_rn(int i);                                                             \
  PUZZLE_HD int __##S##2int_rz(T h);                                                             \
  PUZZLE_HD int __##S##2int_rn(T h);                                                             \
  PUZZLE_HD unsigned short __##S##_as_ushort(T h);                                               \
  PUZZLE_HD short __##S##_as_short(T h);                                                         \
  PUZZLE_HD T __ushort_as_##S(unsigned short u);                                                 \
  PUZZLE_HD T __short_as_##S(short s);                                                           \
  PUZZLE_HD P __floats2##S##2_rn(float lo, float hi);                                            \
  PUZZLE_HD P __float22##S##2_rn(float2 f);                                                      \
  PUZZLE_HD P __float2##S##2_rn(float f);                                                        \
  PUZZLE_HD float2 __##S##22float2(P p);                                                         \
  PUZZLE_HD float __low2float(P p);                                                              \
  PUZZLE_HD float __high2float(P p);                                                             \
  PUZZLE_HD T __low2##S(P p);                                                                    \
  PUZZLE_HD T __high2##S(P p);                                                                   \
  PUZZLE_HD P __lows2##S##2(P a, P b);                                                           \
  PUZZLE_HD P __highs2##S##2(P a, P b);                                                          \
  PUZZLE_HD P __low2##S##2(P p);                                                                 \
  PUZZLE_HD P __high2##S##2(P p);                                                                \
  PUZZLE_HD P __lowhigh2highlow(P p);                                                            \
  PUZZLE_HD T __hadd(T a, T b);                                                                  \
  PUZZLE_HD T __hsub(T a, T b);                                                                  \
  PUZZLE_HD T __hmul(T a, T b);                                                                  \
  PUZZLE_HD T __hdiv(T a, T b);                                                                  \
  PUZZLE_HD T __hfma(T a, T b, T c);                                                             \
  PUZZLE_HD T __hneg(T a);                                                                       \
  PUZZLE_HD T __habs(T a);                                                                       \
  PUZZLE_HD T __hmax(T a, T b);                                                                  \
  PUZZLE_HD T __hmin(T a, T b);                                                                  \
  PUZZLE_HD T __hmax_nan(T a, T b);                                                              \
  PUZZLE_HD T __hmin_nan(T a, T b);                                                              \
  PUZZLE_HD bool __heq(T a, T b);                                                                \
  PUZZLE_HD bool __hne(T a, T b);                                                                \
  PUZZLE_HD bool __hlt(T a, T b);                                                                \
  PUZZLE_HD bool __hle(T a, T b);                                                                \
  PUZZLE_HD bool __hgt(T a, T b);                                                                \
  PUZZLE_HD bool __hge(T a, T b);                                                                \
  PUZZLE_HD bool __hequ(T a, T b);                                                               \
  PUZZLE_HD bool __hneu(T a, T b);                                                               \
  PUZZLE_HD bool __hltu(T a, T b);                                                               \
  PUZZLE_HD bool __hleu(T a, T b);                                                               \
  PUZZLE_HD bool __hgtu(T a, T b);                                                               \
  PUZZLE_HD bool __hgeu(T a, T b);                                                               \
  PUZZLE_HD bool __hisnan(T a);                                                                  \
  PUZZLE_HD int __hisinf(T a);                                                                   \
  PUZZLE_HD T hexp(T a);                                                                         \
  PUZZLE_HD T hexp2(T a);                                                                        \
  PUZZLE_HD T hlog(T a);                                                                         \
  PUZZLE_HD T hlog2(T a);                                                                        \
  PUZZLE_HD T hsqrt(T a);                                                                        \
  PUZZLE_HD T hrsqrt(T a);                                                                       \
  PUZZLE_HD T hrcp(T a);                                                                         \
  PUZZLE_HD P __hadd2(P a, P b);                                                                 \
  PUZZLE_HD P __hsub2(P a, P b);                                                                 \
  PUZZLE_HD P __hmul2(P a, P b);                                                                 \
  PUZZLE_HD P __h2div(P a, P b);                                                                 \
  PUZZLE_HD P __hmax2(P a, P b);                                                                 \
  PUZZLE_HD P __hmin2(P a, P b);                                                                 \
  PUZZLE_HD P __hmax2_nan(P a, P b);                                                             \
  PUZZLE_HD P __hmin2_nan(P a, P b);                                                             \
  PUZZLE_HD P __hfma2(P a, P b, P c);                                                            \
  PUZZLE_HD P __hneg2(P a);                                                                      \
  PUZZLE_HD P __habs2(P a);                                                                      \
  PUZZLE_HD P h2exp(P a);                                                                        \
  PUZZLE_HD P h2exp2(P a);                                                                       \
  PUZZLE_HD bool __hbeq2(P a, P b);                                                              \
  PUZZLE_HD T operator+(const T& a, const T& b);                                                 \
  PUZZLE_HD T operator-(const T& a, const T& b);                                                 \
  PUZZLE_HD T operator*(const T& a, const T& b);                                                 \
  PUZZLE_HD T operator/(const T& a, const T& b);                                                 \
  PUZZLE_HD T& operator+=(T& a, const T& b);                                                     \
  PUZZLE_HD T& operator-=(T& a, const T& b);                                                     \
  PUZZLE_HD T& operator*=(T& a, const T& b);                                                     \
  PUZZLE_HD T& operator/=(T& a, const T& b);                                                     \
  PUZZLE_HD T operator-(const T& a);                                                             \
  PUZZLE_HD T operator+(const T& a);                                                             \
  PUZZLE_HD bool operator==(const T& a, const T& b);                                             \
  PUZZLE_HD bool operator!=(const T& a, const T& b);                                             \
  PUZZLE_HD bool operator<(const T& a, const T& b);                                              \
  PUZZLE_HD bool operator<=(const T& a, const T& b);                                             \
  PUZZLE_HD bool operator>(const T& a, const T& b);                                              \
  PUZZLE_HD bool operator>=(const T& a, const T& b);                                             \
  PUZZLE_HD P operator+(const P& a, const P& b);                                                 \
  PUZZLE_HD P operator-(const P& a, const P& b);                                                 \
  PUZZLE_HD P operator*(const P& a, const P& b);                                                 \
  PUZZLE_HD P& operator+=(P& a, const P& b);                                                     \
  PUZZLE_HD P& operator*=(P& a, const P& b);                                                     \
  __device__ T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize);            \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize);   \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize); \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize);       \
  __device__ P __shfl_sync(unsigned mask, P var, int src_lane, int width = warpSize);            \
  __device__ P __shfl_up_sync(unsigned mask, P var, unsigned int delta, int width = warpSize);   \
  __device__ P __shfl_down_sync(unsigned mask, P var, unsigned int delta, int width = warpSize); \
  __device__ P __shfl_xor_sync(unsigned mask, P var, int lane_mask, int width = warpSize);       \
  __device__ T atomicAdd(T* address, T val);                                                     \
  __device__ P atomicAdd(P* address, P val);                                                     \
  __device__ T __ldg(const T* p);                                                                \
  __device__ P __ldg(const P* p);
PUZZLE_SIXTEEN_API(__half, __half2, half)
PUZZLE_SIXTEEN_API(__nv_bfloat16, __nv_bfloat162, bfloat16)
#undef PUZZLE_SIXTEEN_API
PUZZLE_HD __half2 __halves2half2(__half lo, __half hi);
PUZZLE_HD __half2 __half2half2(__half h);
PUZZLE_HD __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi);
PUZZLE_HD __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 h);
#undef PUZZLE_HD
