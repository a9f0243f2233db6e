// The 16-bit buffers' conversions (harness/core/dtype.hpp) against the simulator's cuda_fp16.h /
// cuda_bf16.h, which tests/gpu/mma_bits.cu showed bit-exact with an H100: the inputs the harness rounds are
// the values a GPU kernel would get from __float2bfloat16_rn / __float2half_rn, and widening is exact.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "dtype.hpp"
#include "protocol.hpp"
#include "rng.hpp"

using namespace puzzle;

namespace {

uint16_t device_bits(Dtype dtype, float value) {
  return dtype == Dtype::bf16 ? std::bit_cast<uint16_t>(__float2bfloat16_rn(value))
                              : std::bit_cast<uint16_t>(__float2half_rn(value));
}

float device_value(Dtype dtype, uint16_t bits) {
  return dtype == Dtype::bf16 ? __bfloat162float(std::bit_cast<__nv_bfloat16>(bits))
                              : __half2float(std::bit_cast<__half>(bits));
}

}  // namespace

TEST_CASE("16-bit buffers: every non-NaN value widens as the device widens it") {
  for (const Dtype dtype : {Dtype::bf16, Dtype::f16}) {
    CAPTURE(dtype_name(dtype));
    int64_t differ = 0;
    for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
      const float device = device_value(dtype, static_cast<uint16_t>(bits));
      if (std::isnan(device)) continue;
      differ += std::bit_cast<uint32_t>(widen(dtype, static_cast<uint16_t>(bits))) !=
                std::bit_cast<uint32_t>(device);
    }
    CHECK(differ == 0);
  }
}

TEST_CASE(
    "16-bit buffers: rounding to nearest even matches the device's, ties, subnormals and overflow included") {
  Rng rng(20261125);
  for (const Dtype dtype : {Dtype::bf16, Dtype::f16}) {
    CAPTURE(dtype_name(dtype));
    int64_t differ = 0;
    const auto check = [&](float value) {
      if (std::isnan(value)) return;
      differ += narrow(dtype, value) != device_bits(dtype, value);
      differ += std::bit_cast<uint32_t>(round_to(dtype, value)) !=
                std::bit_cast<uint32_t>(device_value(dtype, device_bits(dtype, value)));
    };
    for (int i = 0; i < 1000000; ++i) check(std::bit_cast<float>(static_cast<uint32_t>(rng.next())));
    for (int i = 0; i < 1000000; ++i) check(static_cast<float>(rng.normal() * 1000));
    // Exact ties (halfway between two 16-bit values) and the edges of both formats.
    for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
      const float low = widen(dtype, static_cast<uint16_t>(bits));
      const float high = widen(dtype, static_cast<uint16_t>(bits + 1));
      if (std::isfinite(low) && std::isfinite(high))
        check(static_cast<float>((static_cast<double>(low) + high) / 2));
    }
    for (const float value :
         {0.0f, -0.0f, 65504.0f, 65520.0f, 65519.99f, 6e-8f, 3e-8f, 1e-40f, 3.4e38f, INFINITY, -INFINITY}) {
      check(value);
    }
    CHECK(differ == 0);
  }
}

TEST_CASE("16-bit buffers: poison and guard patterns survive the trip to the device and back") {
  for (const Dtype dtype : {Dtype::bf16, Dtype::f16}) {
    for (const uint32_t pattern : {protocol::kPoisonBits, protocol::kGuardBits}) {
      const uint16_t bits = narrow(dtype, std::bit_cast<float>(pattern));
      CHECK(std::isnan(device_value(dtype, bits)));  // a pattern arithmetic hardly makes: a NaN payload
      CHECK(std::bit_cast<uint32_t>(widen(dtype, bits)) == pattern);
    }
    // A NaN the kernel writes is not mistaken for either.
    const uint16_t canonical = 0x7FFF;
    CHECK(std::bit_cast<uint32_t>(widen(dtype, canonical)) != protocol::kPoisonBits);
    CHECK(std::isnan(widen(dtype, canonical)));
  }
  CHECK(dtype_bytes(Dtype::f32) == 4);
  CHECK(dtype_bytes(Dtype::bf16) == 2);
  CHECK(std::string(dtype_name(Dtype::bf16)) == "bf16");
}
