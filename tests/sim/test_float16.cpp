// The 16-bit types against references that share no code with them: the host's own binary16
// (_Float16, IEEE round-to-nearest-even), bfloat16 rounding by integer arithmetic on the float's bits,
// and exact integer arithmetic for the fp16 operations. Every 16-bit value is tried where it is cheap.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

namespace {

uint32_t bits_of(float f) {
  return std::bit_cast<uint32_t>(f);
}
float float_of(uint32_t u) {
  return std::bit_cast<float>(u);
}
bool is_nan16(uint16_t h, int fraction_bits) {
  const uint16_t inf = static_cast<uint16_t>((0x7FFF >> fraction_bits) << fraction_bits);
  return (h & 0x7FFF) > inf;
}

// bfloat16 by integer rounding of the float's bits (the widely used formula), NaN canonical.
uint16_t bf16_reference(float f, bool truncate) {
  const uint32_t u = bits_of(f);
  if (std::isnan(f)) return 0x7FFF;
  if (truncate) return static_cast<uint16_t>(u >> 16);
  return static_cast<uint16_t>((u + 0x7FFF + (u >> 16 & 1)) >> 16);
}

uint16_t half_reference(float f) {
  if (std::isnan(f)) return 0x7FFF;
  return std::bit_cast<uint16_t>(static_cast<_Float16>(f));
}

// Floats that exercise rounding: random bits, and values whose dropped bits are exactly a tie, one
// below or one above it, at every exponent.
std::vector<float> rounding_probes(int dropped_bits) {
  std::vector<float> probes;
  std::mt19937 rng(21);
  for (int i = 0; i < 400000; ++i) probes.push_back(float_of(rng()));
  const uint32_t tie = 1u << (dropped_bits - 1);
  for (uint32_t exponent = 0; exponent < 256; ++exponent) {
    for (int k = 0; k < 64; ++k) {
      const uint32_t high = (exponent << 23 | (rng() & 0x7FFFFF)) & ~((1u << dropped_bits) - 1);
      for (uint32_t low : {tie, tie - 1, tie + 1, 0u, (1u << dropped_bits) - 1}) {
        probes.push_back(float_of(high | low));
        probes.push_back(float_of(0x80000000u | high | low));
      }
    }
  }
  return probes;
}

// The exact value N * 2^-48 rounded to binary16 (round to nearest even), by integer arithmetic.
// An exact zero is -0 only where IEEE says so (`negative_zero`), e.g. the product of -0 and a positive.
uint16_t half_from_scaled(__int128 n, bool negative_zero = false) {
  const uint16_t sign = n < 0 || (n == 0 && negative_zero) ? 0x8000 : 0;
  unsigned __int128 m = n < 0 ? -static_cast<unsigned __int128>(n) : n;
  // A binary16 quantum at biased exponent e (e >= 1) is 2^(e-25); e = 1 also covers the subnormals.
  int e = 1;
  while (e < 31 && m >= (static_cast<unsigned __int128>(2048) << (e + 23))) ++e;
  const int shift = e + 23;  // quanta of 2^(e-25) in units of 2^-48
  unsigned __int128 units = m >> shift;
  const unsigned __int128 rest = m - (units << shift), half = static_cast<unsigned __int128>(1)
                                                              << (shift - 1);
  if (rest > half || (rest == half && (units & 1))) ++units;
  const uint32_t bits = static_cast<uint32_t>(((e - 1) << 10) + units);
  return static_cast<uint16_t>(sign | (bits >= 0x7C00 ? 0x7C00 : bits));
}

bool negative(__half h) {
  return __half_as_ushort(h) & 0x8000;
}

__int128 scaled(__half h, int scale) {  // h * 2^scale as an integer (exact for finite halves)
  return static_cast<__int128>(std::ldexp(static_cast<double>(__half2float(h)), scale));
}

}  // namespace

TEST_CASE("float16: every __half and __nv_bfloat16 widens to float exactly") {
  for (uint32_t h = 0; h < 65536; ++h) {
    const float half = __half2float(__ushort_as_half(static_cast<uint16_t>(h)));
    const float bf = __bfloat162float(__ushort_as_bfloat16(static_cast<uint16_t>(h)));
    if (is_nan16(static_cast<uint16_t>(h), 10)) {
      CHECK(bits_of(half) == 0x7FFFFFFFu);
    } else {
      const float expected = static_cast<float>(std::bit_cast<_Float16>(static_cast<uint16_t>(h)));
      CHECK(bits_of(half) == bits_of(expected));
    }
    CHECK(bits_of(bf) == h << 16);  // NaNs too: the GPU moves the bits
  }
}

TEST_CASE("float16: float to __half rounds to nearest even, ties included") {
  int mismatches = 0;
  for (float f : rounding_probes(13)) {
    const uint16_t got = __half_as_ushort(__float2half(f)), rn = __half_as_ushort(__float2half_rn(f));
    if (got != half_reference(f) || rn != got) ++mismatches;
  }
  CHECK(mismatches == 0);
  CHECK(__half_as_ushort(__float2half(65520.0f)) == 0x7C00);  // the tie above the largest half: inf
  CHECK(__half_as_ushort(__float2half(65519.99f)) == 0x7BFF);
  CHECK(__half_as_ushort(__float2half(std::ldexp(1.0f, -25))) == 0x0000);  // tie to even: zero
  CHECK(__half_as_ushort(__float2half(std::ldexp(1.5f, -25))) == 0x0001);
  CHECK(__half_as_ushort(__float2half(-0.0f)) == 0x8000);
}

TEST_CASE("float16: float to __nv_bfloat16, nearest even and toward zero") {
  int mismatches = 0;
  for (float f : rounding_probes(16)) {
    if (__bfloat16_as_ushort(__float2bfloat16(f)) != bf16_reference(f, false)) ++mismatches;
    if (__bfloat16_as_ushort(__float2bfloat16_rn(f)) != bf16_reference(f, false)) ++mismatches;
    if (__bfloat16_as_ushort(__float2bfloat16_rz(f)) != bf16_reference(f, true)) ++mismatches;
  }
  CHECK(mismatches == 0);
  CHECK(__bfloat16_as_ushort(__float2bfloat16(float_of(0x7F7FFFFFu))) == 0x7F80);     // rounds up to inf
  CHECK(__bfloat16_as_ushort(__float2bfloat16_rz(float_of(0x7F7FFFFFu))) == 0x7F7F);  // stays finite
  CHECK(__bfloat16_as_ushort(__float2bfloat16(float_of(0x00018000u))) == 0x0002);  // subnormal tie, to even
}

TEST_CASE("float16: directed rounding to __half") {
  for (float f : {1.0f + std::ldexp(1.0f, -12), -(1.0f + std::ldexp(1.0f, -12)), 70000.0f, -70000.0f}) {
    const uint16_t rz = __half_as_ushort(__float2half_rz(f)), rd = __half_as_ushort(__float2half_rd(f)),
                   ru = __half_as_ushort(__float2half_ru(f));
    const float lo = __half2float(__ushort_as_half(rd)), hi = __half2float(__ushort_as_half(ru));
    CHECK(lo <= f);
    CHECK(hi >= f);
    CHECK(rz == (f > 0 ? rd : ru));
  }
  CHECK(__half_as_ushort(__float2half_rz(70000.0f)) == 0x7BFF);
  CHECK(__half_as_ushort(__float2half_ru(70000.0f)) == 0x7C00);
}

TEST_CASE("float16: __half arithmetic is the exact result rounded once") {
  std::mt19937 rng(7);
  int mismatches = 0;
  auto finite = [&] {
    for (;;) {
      const __half h = __ushort_as_half(static_cast<uint16_t>(rng()));
      if (std::isfinite(__half2float(h))) return h;
    }
  };
  for (int i = 0; i < 300000; ++i) {
    const __half a = finite(), b = finite(), c = finite();
    const bool both_negative = negative(a) && negative(b);
    if (__half_as_ushort(__hadd(a, b)) != half_from_scaled(scaled(a, 48) + scaled(b, 48), both_negative))
      ++mismatches;
    if (__half_as_ushort(__hsub(a, b)) !=
        half_from_scaled(scaled(a, 48) - scaled(b, 48), negative(a) && !negative(b)))
      ++mismatches;
    if (__half_as_ushort(__hmul(a, b)) !=
        half_from_scaled(scaled(a, 24) * scaled(b, 24), negative(a) != negative(b)))
      ++mismatches;
    const __int128 product = scaled(a, 24) * scaled(b, 24);
    const bool product_negative = negative(a) != negative(b);
    if (__half_as_ushort(__hfma(a, b, c)) !=
        half_from_scaled(product + scaled(c, 48), product == 0 && product_negative && negative(c)))
      ++mismatches;
  }
  CHECK(mismatches == 0);
  const __half one = __float2half(1.0f), inf = CUDART_INF_FP16;
  CHECK(__half_as_ushort(__hsub(inf, inf)) == 0x7FFF);  // NaN results are canonical
  CHECK(__half_as_ushort(__hadd(one, __hneg(one))) == 0x0000);
}

TEST_CASE("float16: __nv_bfloat16 arithmetic against exact doubles") {
  std::mt19937 rng(8);
  int mismatches = 0;
  // Normal values with nearby exponents: their sums and products are exact in double, and rounding a
  // normal double to 8 significant bits is integer arithmetic on its bits.
  auto normal = [&] {
    const uint32_t sign = rng() & 0x8000, exponent = 112 + rng() % 31, fraction = rng() & 0x7F;
    return __ushort_as_bfloat16(static_cast<uint16_t>(sign | exponent << 7 | fraction));
  };
  auto round_double = [](double d) {
    const uint64_t u = std::bit_cast<uint64_t>(d);
    return std::bit_cast<double>((u + (uint64_t{1} << 44) - 1 + (u >> 45 & 1)) >> 45 << 45);
  };
  for (int i = 0; i < 300000; ++i) {
    const __nv_bfloat16 a = normal(), b = normal(), c = normal();
    const double x = __bfloat162float(a), y = __bfloat162float(b), z = __bfloat162float(c);
    if (__bfloat162float(__hadd(a, b)) != round_double(x + y) && x + y != 0) ++mismatches;
    if (__bfloat162float(__hmul(a, b)) != round_double(x * y)) ++mismatches;
    if (__bfloat162float(__hfma(a, b, c)) != round_double(x * y + z) && x * y + z != 0) ++mismatches;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("float16: max, min, comparisons and pairs") {
  const __nv_bfloat16 nan = CUDART_NAN_BF16, one = __float2bfloat16(1.0f), two = __float2bfloat16(2.0f);
  CHECK(__bfloat162float(__hmax(nan, one)) == 1.0f);
  CHECK(__bfloat16_as_ushort(__hmax_nan(nan, one)) == 0x7FFF);
  CHECK(__bfloat16_as_ushort(__hmax(__float2bfloat16(-0.0f), __float2bfloat16(0.0f))) == 0x0000);
  CHECK(__bfloat16_as_ushort(__hmin(__float2bfloat16(0.0f), __float2bfloat16(-0.0f))) == 0x8000);
  CHECK(__hlt(one, two));
  CHECK_FALSE(__hlt(nan, two));
  CHECK(__hltu(nan, two));
  CHECK(__hne(one, two));
  CHECK_FALSE(__hne(nan, two));
  CHECK(__hneu(nan, nan));
  CHECK(one < two);
  const __nv_bfloat162 p = __floats2bfloat162_rn(1.5f, -3.0f),
                       q = __float22bfloat162_rn(make_float2(0.5f, 4.0f));
  const __nv_bfloat162 s = __hadd2(p, q), m = __hmul2(p, q), f = __hfma2(p, q, p);
  CHECK(__low2float(s) == 2.0f);
  CHECK(__high2float(s) == 1.0f);
  CHECK(__low2float(m) == 0.75f);
  CHECK(__high2float(m) == -12.0f);
  CHECK(__high2float(f) == -15.0f);
  // x is the low 16 bits of the 32-bit register, as mma fragments pack pairs.
  CHECK(std::bit_cast<uint32_t>(p) ==
        (uint32_t{__bfloat16_as_ushort(p.y)} << 16 | __bfloat16_as_ushort(p.x)));
  const __half2 h = __floats2half2_rn(1.0f, 2.0f);
  CHECK(__half22float2(__hmax2(h, __lowhigh2highlow(h))).x == 2.0f);
  CHECK(__half2float(hexp2(__float2half(3.0f))) == 8.0f);
  CHECK(__half2float(__float2half(0.1f) + __float2half(0.2f)) == __half2float(__float2half(0.2998046875f)));
}
