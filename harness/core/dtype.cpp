#include "dtype.hpp"

#include <bit>
#include <cmath>
#include <stdexcept>

#include "parallel_for.hpp"
#include "protocol.hpp"

namespace puzzle {
namespace {

// NaN payloads of both 16-bit formats (exponent all ones, mantissa not zero) that stand for the
// protocol's 32-bit poison and guard patterns.
constexpr uint16_t kPoison16 = 0x7FEE;
constexpr uint16_t kGuard16 = 0x7FAD;

uint16_t bf16_nearest(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if (std::isnan(value)) return static_cast<uint16_t>((bits >> 16) | 0x0040);  // stays a quiet NaN
  return static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

uint16_t f16_nearest(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7FFFFFFF;
  if (magnitude > 0x7F800000) return sign | 0x7E00 | ((magnitude >> 13) & 0x3FF);  // NaN, payload kept
  if (magnitude >= 0x477FF000) return sign | 0x7C00;                               // >= 65520: inf
  if (magnitude < 0x38800000) {  // below 2^-14: a subnormal half, in units of 2^-24
    const double units = std::nearbyint(static_cast<double>(std::bit_cast<float>(magnitude)) * 0x1p24);
    return sign | static_cast<uint16_t>(units);  // 0x400 (the smallest normal) is right as it stands
  }
  magnitude += 0xC8000FFF + ((magnitude >> 13) & 1);  // exponent rebias, round to nearest even
  return sign | static_cast<uint16_t>(magnitude >> 13);
}

float f16_value(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1F;
  const uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 0x1F) return std::bit_cast<float>(sign | 0x7F800000 | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

}  // namespace

const char* dtype_name(Dtype dtype) {
  switch (dtype) {
    case Dtype::f32:
      return "fp32";
    case Dtype::bf16:
      return "bf16";
    case Dtype::f16:
      return "fp16";
  }
  return "?";
}

size_t dtype_bytes(Dtype dtype) {
  return dtype == Dtype::f32 ? 4 : 2;
}

float round_to(Dtype dtype, float value) {
  return dtype == Dtype::f32 ? value : widen(dtype, narrow(dtype, value));
}

void round_all(Dtype dtype, std::span<float> values) {
  if (dtype == Dtype::f32) return;
  parallel_ranges(static_cast<int64_t>(values.size()), 1 << 18, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) values[i] = round_to(dtype, values[i]);
  });
}

uint16_t narrow(Dtype dtype, float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if (bits == protocol::kPoisonBits) return kPoison16;
  if (bits == protocol::kGuardBits) return kGuard16;
  switch (dtype) {
    case Dtype::bf16:
      return bf16_nearest(value);
    case Dtype::f16:
      return f16_nearest(value);
    case Dtype::f32:
      break;
  }
  throw std::logic_error("narrow() of a float buffer");
}

float widen(Dtype dtype, uint16_t bits) {
  if (bits == kPoison16) return std::bit_cast<float>(protocol::kPoisonBits);
  if (bits == kGuard16) return std::bit_cast<float>(protocol::kGuardBits);
  switch (dtype) {
    case Dtype::bf16:
      return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
    case Dtype::f16:
      return f16_value(bits);
    case Dtype::f32:
      break;
  }
  throw std::logic_error("widen() of a float buffer");
}

}  // namespace puzzle
