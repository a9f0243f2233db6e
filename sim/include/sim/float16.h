// CUDA's 16-bit floating-point types for the host compiler: __half (IEEE binary16) and __nv_bfloat16
// (bfloat16), their pairs, conversions and arithmetic, bit for bit as a GPU computes them. Every
// operation rounds the exact result once, as PTX's .rn/.rz/.rm/.rp instructions do (subnormals kept);
// a NaN result is the canonical NaN 0x7FFF, and a 16-bit NaN widens to the float NaN 0x7FFFFFFF (what
// NVIDIA's cuda_fp16.hpp host emulation says the device gives). cuda_fp16.h and cuda_bf16.h include it.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <concepts>
#include <cstdint>

#include "sim/qualifiers.h"
#include "vector_types.h"

namespace sim::f16 {

enum class Round { nearest_even, toward_zero, down, up };

// The bits of the 16-bit format with `E` exponent and `M` fraction bits nearest to hi + lo, where
// hi + lo is the exact value and |lo| is at most half an ulp of hi in double (so only a result that
// hi puts exactly on a tie, or exactly on a representable value, needs lo to decide).
template <int E, int M>
constexpr uint16_t encode(double hi, double lo, Round mode) {
  constexpr int bias = (1 << (E - 1)) - 1, emin = 1 - bias;
  constexpr uint16_t infinity = ((1u << E) - 1) << M;
  if (std::isnan(hi)) return 0x7FFF;
  const uint16_t sign = std::signbit(hi) ? 0x8000 : 0;
  const double magnitude = std::fabs(hi), below = sign ? -lo : lo;  // below: the rest, toward +magnitude
  if (std::isinf(magnitude)) return sign | infinity;
  if (magnitude == 0 && below == 0) return sign;
  // Away from zero is up for a positive value and down for a negative one.
  const bool away_is_up = sign == 0;
  const int exponent = magnitude == 0 ? emin : std::max(std::ilogb(magnitude), emin);
  const double quantum = std::ldexp(1.0, exponent - M);  // the ulp at that exponent (exact scaling)
  double units = std::floor(magnitude / quantum);
  const double rest = magnitude / quantum - units, rest_low = below / quantum;  // value = units+rest+low
  const bool exact = rest == 0 && rest_low == 0;
  const bool under = rest == 0 && rest_low < 0;  // just below units: truncation is units - 1
  switch (mode) {
    case Round::nearest_even:
      if (rest > 0.5 || (rest == 0.5 && (rest_low > 0 || (rest_low == 0 && std::fmod(units, 2) == 1))))
        units += 1;
      break;
    case Round::toward_zero:
      if (under) units -= 1;
      break;
    case Round::down:
    case Round::up:
      if ((mode == Round::up) == away_is_up) {
        if (!exact && !under) units += 1;
      } else if (under) {
        units -= 1;
      }
      break;
  }
  // Biased exponent and fraction in one: units counts quanta of 2^(exponent-M), including the
  // implicit bit, so a carry out of the fraction moves into the exponent by itself.
  const uint32_t bits = (static_cast<uint32_t>(exponent - emin) << M) + static_cast<uint32_t>(units);
  if (bits >= infinity) {
    const bool to_infinity = mode == Round::nearest_even || (mode == Round::up && away_is_up) ||
                             (mode == Round::down && !away_is_up);
    return sign | (to_infinity ? infinity : infinity - 1);
  }
  return static_cast<uint16_t>(sign | bits);
}

// Exact value of the bits as a double; every NaN becomes float's canonical NaN.
template <int E, int M>
constexpr double decode(uint16_t bits) {
  constexpr int bias = (1 << (E - 1)) - 1;
  const int field = bits >> M & ((1 << E) - 1);
  const uint32_t fraction = bits & ((1u << M) - 1);
  double magnitude;
  if (field == (1 << E) - 1) {
    if (fraction != 0) return std::bit_cast<float>(0x7FFFFFFFu);
    magnitude = INFINITY;
  } else if (field == 0) {
    magnitude = std::ldexp(static_cast<double>(fraction), 1 - bias - M);
  } else {
    magnitude = std::ldexp(static_cast<double>(fraction | 1u << M), field - bias - M);
  }
  return bits & 0x8000 ? -magnitude : magnitude;
}

// The error of hi = a + b rounded to double (Knuth's TwoSum): a + b == hi + the result, exactly.
constexpr double sum_error(double a, double b, double hi) {
  const double b_part = hi - a, a_part = hi - b_part;
  return (a - a_part) + (b - b_part);
}

// A 16-bit format's value with CUDA's interface: built from and read as float, raw bits in __x.
template <int E, int M>
struct Value {
  static constexpr int exponent_bits = E, fraction_bits = M;
  uint16_t __x;

  static constexpr uint16_t from(double value, Round mode = Round::nearest_even) {
    return encode<E, M>(value, 0, mode);
  }
  constexpr double exact() const { return decode<E, M>(__x); }
  constexpr bool is_nan() const { return (__x & 0x7FFF) > (((1u << E) - 1) << M); }
};

template <class T>
concept Sixteen = requires {
  T::exponent_bits;
}
&&std::derived_from<T, Value<T::exponent_bits, T::fraction_bits>>;

template <Sixteen T>
constexpr T make(uint16_t bits) {
  T t;
  t.__x = bits;
  return t;
}
template <Sixteen T>
constexpr T round_to(double hi, double lo = 0, Round mode = Round::nearest_even) {
  return make<T>(encode<T::exponent_bits, T::fraction_bits>(hi, lo, mode));
}
// A function of float computed in float and rounded once (the approximate functions: hexp2 ...).
template <Sixteen T, class F>
T through_float(T a, F f) {
  return round_to<T>(f(static_cast<float>(a.exact())));
}

}  // namespace sim::f16

struct __half_raw {
  unsigned short x;
};
struct __nv_bfloat16_raw {
  unsigned short x;
};

#define SIM_SIXTEEN_TYPE(NAME, RAW, E, M)              \
  struct __align__(2) NAME : ::sim::f16::Value<E, M> { \
    NAME() = default;                                  \
    constexpr NAME(RAW raw) {                          \
      __x = raw.x;                                     \
    }                                                  \
    NAME(float f) {                                    \
      __x = from(f);                                   \
    }                                                  \
    NAME(double d) {                                   \
      __x = from(d);                                   \
    }                                                  \
    NAME(int i) {                                      \
      __x = from(i);                                   \
    }                                                  \
    NAME(unsigned int i) {                             \
      __x = from(i);                                   \
    }                                                  \
    NAME(long long i) {                                \
      __x = from(static_cast<double>(i));              \
    }                                                  \
    NAME(unsigned long long i) {                       \
      __x = from(static_cast<double>(i));              \
    }                                                  \
    NAME(short i) {                                    \
      __x = from(i);                                   \
    }                                                  \
    NAME(unsigned short i) {                           \
      __x = from(i);                                   \
    }                                                  \
    operator float() const {                           \
      return static_cast<float>(exact());              \
    }                                                  \
    constexpr operator RAW() const {                   \
      return RAW{__x};                                 \
    }                                                  \
    NAME& operator=(RAW raw) {                         \
      __x = raw.x;                                     \
      return *this;                                    \
    }                                                  \
  };
SIM_SIXTEEN_TYPE(__half, __half_raw, 5, 10)
SIM_SIXTEEN_TYPE(__nv_bfloat16, __nv_bfloat16_raw, 8, 7)
#undef SIM_SIXTEEN_TYPE
using half = __half;
using nv_bfloat16 = __nv_bfloat16;

namespace sim::f16 {
// Two values in one 32-bit register: x in the low 16 bits, as mma fragments pack them.
template <class T>
struct __align__(4) Pair {
  T x, y;
  Pair() = default;
  constexpr Pair(T x_, T y_) : x(x_), y(y_) {}
};
}  // namespace sim::f16

struct __half2 : ::sim::f16::Pair<__half> {
  using Pair::Pair;
};
struct __nv_bfloat162 : ::sim::f16::Pair<__nv_bfloat16> {
  using Pair::Pair;
};
using half2 = __half2;
using nv_bfloat162 = __nv_bfloat162;

namespace sim::f16 {
template <class P>
concept SixteenPair = std::same_as<P, __half2> || std::same_as<P, __nv_bfloat162>;
template <SixteenPair P>
using Half = decltype(P::x);
}  // namespace sim::f16

// ---- conversions to and from float (one rounding; names as CUDA spells them) ----
#define SIM_FROM_FLOAT(NAME, T, MODE)           \
  inline T NAME(float f) {                      \
    return ::sim::f16::round_to<T>(f, 0, MODE); \
  }
SIM_FROM_FLOAT(__float2half, __half, ::sim::f16::Round::nearest_even)
SIM_FROM_FLOAT(__float2half_rn, __half, ::sim::f16::Round::nearest_even)
SIM_FROM_FLOAT(__float2half_rz, __half, ::sim::f16::Round::toward_zero)
SIM_FROM_FLOAT(__float2half_rd, __half, ::sim::f16::Round::down)
SIM_FROM_FLOAT(__float2half_ru, __half, ::sim::f16::Round::up)
SIM_FROM_FLOAT(__float2bfloat16, __nv_bfloat16, ::sim::f16::Round::nearest_even)
SIM_FROM_FLOAT(__float2bfloat16_rn, __nv_bfloat16, ::sim::f16::Round::nearest_even)
SIM_FROM_FLOAT(__float2bfloat16_rz, __nv_bfloat16, ::sim::f16::Round::toward_zero)
SIM_FROM_FLOAT(__float2bfloat16_rd, __nv_bfloat16, ::sim::f16::Round::down)
SIM_FROM_FLOAT(__float2bfloat16_ru, __nv_bfloat16, ::sim::f16::Round::up)
#undef SIM_FROM_FLOAT
inline __half __double2half(double d) {
  return ::sim::f16::round_to<__half>(d);
}
inline __nv_bfloat16 __double2bfloat16(double d) {
  return ::sim::f16::round_to<__nv_bfloat16>(d);
}
inline float __half2float(__half h) {
  return static_cast<float>(h.exact());
}
// A bfloat16 is the top half of a float: widening moves the bits, NaN payloads included (H100: a NaN's
// bits come back unchanged, tests/gpu/mma_bits.cu).
inline float __bfloat162float(__nv_bfloat16 h) {
  return std::bit_cast<float>(static_cast<uint32_t>(h.__x) << 16);
}
inline __half __int2half_rn(int i) {
  return ::sim::f16::round_to<__half>(i);
}
inline __nv_bfloat16 __int2bfloat16_rn(int i) {
  return ::sim::f16::round_to<__nv_bfloat16>(i);
}
// Float to int truncates; NaN gives 0 and out-of-range values saturate, as cvt.rzi.s32 does.
template <::sim::f16::Sixteen T>
int sim_sixteen_to_int_rz(T h) {
  const double v = h.exact();
  if (std::isnan(v)) return 0;
  return v >= 2147483647.0 ? 2147483647 : v <= -2147483648.0 ? INT32_MIN : static_cast<int>(v);
}
inline int __half2int_rz(__half h) {
  return sim_sixteen_to_int_rz(h);
}
inline int __bfloat162int_rz(__nv_bfloat16 h) {
  return sim_sixteen_to_int_rz(h);
}

// ---- raw bits ----
inline unsigned short __half_as_ushort(__half h) {
  return h.__x;
}
inline short __half_as_short(__half h) {
  return static_cast<short>(h.__x);
}
inline __half __ushort_as_half(unsigned short u) {
  return ::sim::f16::make<__half>(u);
}
inline __half __short_as_half(short s) {
  return ::sim::f16::make<__half>(static_cast<uint16_t>(s));
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) {
  return h.__x;
}
inline short __bfloat16_as_short(__nv_bfloat16 h) {
  return static_cast<short>(h.__x);
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) {
  return ::sim::f16::make<__nv_bfloat16>(u);
}
inline __nv_bfloat16 __short_as_bfloat16(short s) {
  return ::sim::f16::make<__nv_bfloat16>(static_cast<uint16_t>(s));
}

// ---- pairs ----
inline __half2 __floats2half2_rn(float lo, float hi) {
  return {__float2half_rn(lo), __float2half_rn(hi)};
}
inline __half2 __float22half2_rn(float2 f) {
  return __floats2half2_rn(f.x, f.y);
}
inline __half2 __float2half2_rn(float f) {
  return __floats2half2_rn(f, f);
}
inline __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi) {
  return {__float2bfloat16_rn(lo), __float2bfloat16_rn(hi)};
}
inline __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return __floats2bfloat162_rn(f.x, f.y);
}
inline __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __floats2bfloat162_rn(f, f);
}
inline float2 __half22float2(__half2 p) {
  return {__half2float(p.x), __half2float(p.y)};
}
inline float2 __bfloat1622float2(__nv_bfloat162 p) {
  return {__bfloat162float(p.x), __bfloat162float(p.y)};
}
inline __half2 __halves2half2(__half lo, __half hi) {
  return {lo, hi};
}
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi) {
  return {lo, hi};
}
inline __half2 __half2half2(__half h) {
  return {h, h};
}
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 h) {
  return {h, h};
}
template <::sim::f16::SixteenPair P>
float __low2float(P p) {
  return static_cast<float>(p.x.exact());
}
template <::sim::f16::SixteenPair P>
float __high2float(P p) {
  return static_cast<float>(p.y.exact());
}
template <::sim::f16::SixteenPair P>
::sim::f16::Half<P> __low2half(P p) {
  return p.x;
}
template <::sim::f16::SixteenPair P>
::sim::f16::Half<P> __high2half(P p) {
  return p.y;
}
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 p) {
  return p.x;
}
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 p) {
  return p.y;
}
template <::sim::f16::SixteenPair P>
P __lows2half2(P a, P b) {
  return {a.x, b.x};
}
template <::sim::f16::SixteenPair P>
P __highs2half2(P a, P b) {
  return {a.y, b.y};
}
template <::sim::f16::SixteenPair P>
P __lowhigh2highlow(P p) {
  return {p.y, p.x};
}
inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return {a.x, b.x};
}
inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return {a.y, b.y};
}

// ---- arithmetic: the exact result rounded once ----
template <::sim::f16::Sixteen T>
T __hadd(T a, T b) {
  const double hi = a.exact() + b.exact();
  return ::sim::f16::round_to<T>(hi, ::sim::f16::sum_error(a.exact(), b.exact(), hi));
}
template <::sim::f16::Sixteen T>
T __hsub(T a, T b) {
  const double hi = a.exact() - b.exact();
  return ::sim::f16::round_to<T>(hi, ::sim::f16::sum_error(a.exact(), -b.exact(), hi));
}
// Products of two 16-bit values are exact in double.
template <::sim::f16::Sixteen T>
T __hmul(T a, T b) {
  return ::sim::f16::round_to<T>(a.exact() * b.exact());
}
// A 16-bit quotient that is not exact is never within double's rounding of a 16-bit tie, so rounding
// the double quotient again gives the correctly rounded result.
template <::sim::f16::Sixteen T>
T __hdiv(T a, T b) {
  return ::sim::f16::round_to<T>(a.exact() / b.exact());
}
template <::sim::f16::Sixteen T>
T __hfma(T a, T b, T c) {
  const double product = a.exact() * b.exact(), hi = product + c.exact();
  return ::sim::f16::round_to<T>(hi, ::sim::f16::sum_error(product, c.exact(), hi));
}
template <::sim::f16::Sixteen T>
T __hneg(T a) {
  return ::sim::f16::make<T>(a.__x ^ 0x8000);
}
template <::sim::f16::Sixteen T>
T __habs(T a) {
  return ::sim::f16::make<T>(a.__x & 0x7FFF);
}
// max/min.f16: a NaN operand loses to a number, two NaNs give the canonical NaN, +0 > -0.
template <::sim::f16::Sixteen T>
T __hmax(T a, T b) {
  if (a.is_nan() || b.is_nan())
    return a.is_nan() && b.is_nan() ? ::sim::f16::make<T>(0x7FFF) : a.is_nan() ? b : a;
  if (a.exact() == b.exact()) return (a.__x & 0x8000) ? b : a;
  return a.exact() > b.exact() ? a : b;
}
template <::sim::f16::Sixteen T>
T __hmin(T a, T b) {
  if (a.is_nan() || b.is_nan())
    return a.is_nan() && b.is_nan() ? ::sim::f16::make<T>(0x7FFF) : a.is_nan() ? b : a;
  if (a.exact() == b.exact()) return (a.__x & 0x8000) ? a : b;
  return a.exact() < b.exact() ? a : b;
}
template <::sim::f16::Sixteen T>
T __hmax_nan(T a, T b) {
  return a.is_nan() || b.is_nan() ? ::sim::f16::make<T>(0x7FFF) : __hmax(a, b);
}
template <::sim::f16::Sixteen T>
T __hmin_nan(T a, T b) {
  return a.is_nan() || b.is_nan() ? ::sim::f16::make<T>(0x7FFF) : __hmin(a, b);
}

// Comparisons: ordered ones are false with a NaN, the unordered (__hequ ...) true.
#define SIM_COMPARE(NAME, UNORDERED, OP)                       \
  template <::sim::f16::Sixteen T>                             \
  bool NAME(T a, T b) {                                        \
    return a.exact() OP b.exact();                             \
  }                                                            \
  template <::sim::f16::Sixteen T>                             \
  bool UNORDERED(T a, T b) {                                   \
    return a.is_nan() || b.is_nan() || a.exact() OP b.exact(); \
  }
SIM_COMPARE(__heq, __hequ, ==)
SIM_COMPARE(__hlt, __hltu, <)
SIM_COMPARE(__hle, __hleu, <=)
SIM_COMPARE(__hgt, __hgtu, >)
SIM_COMPARE(__hge, __hgeu, >=)
#undef SIM_COMPARE
template <::sim::f16::Sixteen T>
bool __hne(T a, T b) {
  return !a.is_nan() && !b.is_nan() && a.exact() != b.exact();
}
template <::sim::f16::Sixteen T>
bool __hneu(T a, T b) {
  return !(a.exact() == b.exact());
}
template <::sim::f16::Sixteen T>
bool __hisnan(T a) {
  return a.is_nan();
}
template <::sim::f16::Sixteen T>
int __hisinf(T a) {
  return std::isinf(a.exact()) ? (a.__x & 0x8000 ? -1 : 1) : 0;
}

// Approximate functions: computed in float and rounded once, as CUDA's implementations do (their last
// bit can differ from a GPU's where the float approximation differs; the GPU test compares them).
template <::sim::f16::Sixteen T>
T hexp2(T a) {
  return ::sim::f16::through_float(a, [](float x) { return exp2f(x); });
}
template <::sim::f16::Sixteen T>
T hexp(T a) {
  return ::sim::f16::through_float(a, [](float x) { return expf(x); });
}
template <::sim::f16::Sixteen T>
T hlog(T a) {
  return ::sim::f16::through_float(a, [](float x) { return logf(x); });
}
template <::sim::f16::Sixteen T>
T hlog2(T a) {
  return ::sim::f16::through_float(a, [](float x) { return log2f(x); });
}
template <::sim::f16::Sixteen T>
T hsqrt(T a) {
  return ::sim::f16::round_to<T>(std::sqrt(a.exact()));
}
template <::sim::f16::Sixteen T>
T hrsqrt(T a) {
  return ::sim::f16::through_float(a, [](float x) { return 1.0f / sqrtf(x); });
}
template <::sim::f16::Sixteen T>
T hrcp(T a) {
  return ::sim::f16::round_to<T>(1.0 / a.exact());
}

// ---- pair arithmetic: each half on its own ----
#define SIM_PAIR_BINARY(NAME, ONE)         \
  template <::sim::f16::SixteenPair P>     \
  P NAME(P a, P b) {                       \
    return {ONE(a.x, b.x), ONE(a.y, b.y)}; \
  }
SIM_PAIR_BINARY(__hadd2, __hadd)
SIM_PAIR_BINARY(__hsub2, __hsub)
SIM_PAIR_BINARY(__hmul2, __hmul)
SIM_PAIR_BINARY(__h2div, __hdiv)
SIM_PAIR_BINARY(__hmax2, __hmax)
SIM_PAIR_BINARY(__hmin2, __hmin)
SIM_PAIR_BINARY(__hmax2_nan, __hmax_nan)
SIM_PAIR_BINARY(__hmin2_nan, __hmin_nan)
#undef SIM_PAIR_BINARY
template <::sim::f16::SixteenPair P>
P __hfma2(P a, P b, P c) {
  return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}
template <::sim::f16::SixteenPair P>
P __hneg2(P a) {
  return {__hneg(a.x), __hneg(a.y)};
}
template <::sim::f16::SixteenPair P>
P __habs2(P a) {
  return {__habs(a.x), __habs(a.y)};
}
template <::sim::f16::SixteenPair P>
P h2exp2(P a) {
  return {hexp2(a.x), hexp2(a.y)};
}
template <::sim::f16::SixteenPair P>
P h2exp(P a) {
  return {hexp(a.x), hexp(a.y)};
}
template <::sim::f16::SixteenPair P>
bool __hbeq2(P a, P b) {
  return __heq(a.x, b.x) && __heq(a.y, b.y);
}

// ---- operators (CUDA defines them for device code; here everything is device code) ----
#define SIM_SIXTEEN_OPERATORS(T)                   \
  inline T operator+(const T& a, const T& b) {     \
    return __hadd(a, b);                           \
  }                                                \
  inline T operator-(const T& a, const T& b) {     \
    return __hsub(a, b);                           \
  }                                                \
  inline T operator*(const T& a, const T& b) {     \
    return __hmul(a, b);                           \
  }                                                \
  inline T operator/(const T& a, const T& b) {     \
    return __hdiv(a, b);                           \
  }                                                \
  inline T& operator+=(T& a, const T& b) {         \
    return a = __hadd(a, b);                       \
  }                                                \
  inline T& operator-=(T& a, const T& b) {         \
    return a = __hsub(a, b);                       \
  }                                                \
  inline T& operator*=(T& a, const T& b) {         \
    return a = __hmul(a, b);                       \
  }                                                \
  inline T& operator/=(T& a, const T& b) {         \
    return a = __hdiv(a, b);                       \
  }                                                \
  inline T operator-(const T& a) {                 \
    return __hneg(a);                              \
  }                                                \
  inline T operator+(const T& a) {                 \
    return a;                                      \
  }                                                \
  inline bool operator==(const T& a, const T& b) { \
    return __heq(a, b);                            \
  }                                                \
  inline bool operator!=(const T& a, const T& b) { \
    return __hneu(a, b);                           \
  }                                                \
  inline bool operator<(const T& a, const T& b) {  \
    return __hlt(a, b);                            \
  }                                                \
  inline bool operator<=(const T& a, const T& b) { \
    return __hle(a, b);                            \
  }                                                \
  inline bool operator>(const T& a, const T& b) {  \
    return __hgt(a, b);                            \
  }                                                \
  inline bool operator>=(const T& a, const T& b) { \
    return __hge(a, b);                            \
  }
SIM_SIXTEEN_OPERATORS(__half)
SIM_SIXTEEN_OPERATORS(__nv_bfloat16)
#undef SIM_SIXTEEN_OPERATORS
#define SIM_PAIR_OPERATORS(P)                  \
  inline P operator+(const P& a, const P& b) { \
    return __hadd2(a, b);                      \
  }                                            \
  inline P operator-(const P& a, const P& b) { \
    return __hsub2(a, b);                      \
  }                                            \
  inline P operator*(const P& a, const P& b) { \
    return __hmul2(a, b);                      \
  }                                            \
  inline P& operator+=(P& a, const P& b) {     \
    return a = __hadd2(a, b);                  \
  }                                            \
  inline P& operator*=(P& a, const P& b) {     \
    return a = __hmul2(a, b);                  \
  }
SIM_PAIR_OPERATORS(__half2)
SIM_PAIR_OPERATORS(__nv_bfloat162)
#undef SIM_PAIR_OPERATORS

#define CUDART_INF_FP16 __ushort_as_half(0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half(0x7FFFU)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half(0x7BFFU)
#define CUDART_ZERO_FP16 __ushort_as_half(0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half(0x3C00U)
#define CUDART_INF_BF16 __ushort_as_bfloat16(0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16(0x7FFFU)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16(0x7F7FU)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16(0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16(0x3F80U)
