// How a tensor core sums D = A*B + C for one element of an mma with 16-bit or tf32 inputs and float
// accumulators: the model the simulator computes with. Products of two f16/bf16/tf32 values are exact. The
// hardware adds them in blocks: the accumulator and `block` products are aligned to the largest exponent
// among them, bits beyond a fixed window are cut off (toward zero, on the sign and magnitude), the
// aligned values are added exactly and the sum is normalized to float by truncation (or, with
// `round_nearest`, to nearest even). That is the scheme measured on V100/A100 tensor cores (Fasi, Higham,
// Mikaitis, Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021); Khattak and Mikaitis,
// "Accurate models of NVIDIA tensor cores" (2025) refine it for H100.
//
// What H100's mma.sync does (tests/gpu/mma_bits.cu on an H100 80GB HBM3, CUDA 13.0: every one of
// 4 x 65536 results of m16n8k16 / m16n8k8, bf16 / f16, matches kDeviceModel bit for bit, and so do the
// 65536 of m16n8k8 tf32, which read the top 19 bits of each float operand):
//   - One fused step for the whole k (16 or 8 products) together with the accumulator c. Two chained
//     halves of 8 miss 21333 of the 65536 m16n8k16 bf16 results, blocks of 4 miss 37415.
//   - The alignment exponent of a product is ea + eb, the sum of its operands' exponents, not the
//     exponent of the normalized product: the multiplier's output, a significand in [1, 4), is not
//     normalized before alignment. Aligning by the normalized product (what the earlier model did: best
//     "block 16, 3 extra bits, truncate") misses 5335 (k16 bf16) / 6302 / 3482 / 4613 (k8 f16).
//   - The window is that of a significand with two integer bits, [1, 4), at emax = the largest of the
//     products' ea + eb and c's exponent, 24 + 3 bits wide: every term is truncated toward zero to a
//     multiple of 2^(emax + 1 - 26) = 2^(emax - 25). c counts in emax (leaving it out misses 10 / 14 /
//     103 / 225) and sits in the same two-integer-bit window (letting c's own top bit set the window when
//     c is the largest, one bit more, misses 9 / 13 / 87 / 185). 2 or 4 extra bits miss 20145 / 11191
//     (k16 bf16).
//   - Truncation of each term is toward zero on sign and magnitude; on two's complement (toward -inf for
//     negative terms) 37539 miss. The exact sum of the truncated terms is normalized to float toward zero;
//     to nearest even 25452 miss.
// Not covered by the device's data (its inputs are normal numbers in a band around 1): subnormal
// operands (taken here with the format's smallest normal exponent, as the hardware's exponent field
// reads them), zeros and signed zeros, overflow, inf and NaN (the device's NaN is 0x7FFFFFFF).
// Plain C++17, so that the GPU comparison program (nvcc) includes it too.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace sim::mma {

struct Model {
  int block;              // products summed in one fused step with the accumulator (at least 1)
  int extra_bits;         // alignment bits kept beyond float's 24-bit significand
  bool product_exponent;  // align products by ea + eb (significands in [1, 4), two integer bits, c
                          // likewise) instead of by their normalized exponents
  bool round_nearest;     // normalization: to nearest even instead of toward zero
};

// H100 (sm_90) mma.sync, m16n8k16 and m16n8k8 alike (a block of 16 covers k = 8 in one step).
constexpr Model kDeviceModel{16, 3, true, false};
// H100 wgmma.mma_async (bf16 / f16, fp32 accumulators) sums each k16 instruction as mma.sync sums its k16,
// with the accumulator, in one fused step: tests/gpu/wgmma_bits.cu on an H200 (CUDA 13.0, 2026-11-28),
// bf16 with random low bits, m64n128k16 and m64n256k16 (128-byte swizzle), m64n128k16 (64-byte, none) and
// 4 chained k16 slices: all 2752512 results bit for bit.
constexpr Model kWgmmaModel = kDeviceModel;

// The smallest normal exponent of the operand formats: what a subnormal operand's exponent reads as. bf16
// and tf32 have float's exponent.
constexpr int kF16MinExponent = -14;
constexpr int kFloatMinExponent = -126;

// The exponent that aligns a nonzero finite value: its own, but at least `min_exponent` (subnormals).
// Read from the double's exponent field, which is ilogb's answer for every normal double (every 16-bit
// value, every float and every product of two 16-bit values is one); ilogb only for a subnormal double.
// The simulator calls this 33 times per element of an mma.
inline int exponent_of(double x, int min_exponent) {
  uint64_t bits;
  std::memcpy(&bits, &x, 8);
  const int field = static_cast<int>(bits >> 52 & 0x7FF);
  if (field == 0x7FF || x == 0) return min_exponent;  // inf, NaN, zero
  const int exponent = field != 0 ? field - 1023 : std::ilogb(x);
  return std::max(exponent, min_exponent);
}

// 2^e, exactly, built from its bits (std::ldexp is a library call) for a normal double's exponent.
inline double power_of_two(int e) {
  if (e < -1022 || e > 1023) return std::ldexp(1.0, e);
  const uint64_t bits = static_cast<uint64_t>(e + 1023) << 52;
  double x;
  std::memcpy(&x, &bits, 8);
  return x;
}

inline float canonical_nan() {
  const uint32_t bits = 0x7FFFFFFFu;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// `value` rounded to float toward zero (value is exact: a sum of aligned terms).
inline float float_toward_zero(double value) {
  const float nearest = static_cast<float>(value);
  if (std::fabs(static_cast<double>(nearest)) > std::fabs(value)) return std::nextafter(nearest, 0.0f);
  return nearest;
}

// acc + sum over i < count of a[i] * b[i], with a[i], b[i] the exact values of f16, bf16 or tf32 operands
// whose smallest normal exponent is `operand_min_exponent` (kF16MinExponent or kFloatMinExponent).
// `a_exponents` and `b_exponents`, when given, hold exponent_of(a[i], operand_min_exponent) and b's: an
// mma uses each row of A and column of B for many elements, so the simulator computes them once per
// instruction.
inline float accumulate(float acc, const double* a, const double* b, int count, Model model,
                        int operand_min_exponent, const int* a_exponents = nullptr,
                        const int* b_exponents = nullptr) {
  const int block = model.block < 1 ? 1 : model.block;
  for (int start = 0; start < count; start += block) {
    const int end = start + block < count ? start + block : count;
    double terms[65];
    int exponents[65];  // alignment exponent of each nonzero finite term
    int n = 0;
    terms[n] = acc;
    exponents[n++] = exponent_of(acc, -126);
    for (int i = start; i < end; ++i) {
      const double product = a[i] * b[i];  // exact: two 11- (or 8-) bit significands (tf32: 11)
      terms[n] = product;
      exponents[n++] =
          !model.product_exponent ? exponent_of(product, -100000)
          : a_exponents           ? a_exponents[i] + b_exponents[i]
                        : exponent_of(a[i], operand_min_exponent) + exponent_of(b[i], operand_min_exponent);
    }
    bool finite = true, all_negative_zero = true;
    int emax = -100000;
    for (int i = 0; i < n; ++i) {
      finite = finite && std::isfinite(terms[i]);
      all_negative_zero = all_negative_zero && terms[i] == 0 && std::signbit(terms[i]);
      if (terms[i] != 0 && std::isfinite(terms[i])) emax = std::max(emax, exponents[i]);
    }
    if (!finite) {
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += terms[i];
      acc = std::isnan(sum) ? canonical_nan() : static_cast<float>(sum);
      continue;
    }
    if (emax == -100000) {  // every term is zero
      acc = all_negative_zero ? -0.0f : 0.0f;
      continue;
    }
    // The window's top bit: emax for normalized terms, emax + 1 for significands in [1, 4).
    const int top = emax + (model.product_exponent ? 1 : 0);
    const double unit = power_of_two(top - 23 - model.extra_bits);
    // unit is a power of two far inside double's range, so its inverse is exact too, and multiplying by
    // it rounds as dividing by unit does, at a fraction of a division's cost.
    const double per_unit = power_of_two(23 + model.extra_bits - top);
    // Each term truncated toward zero to whole units (the conversion truncates): below 2^(24 + extra_bits)
    // apiece, since no term exceeds the window.
    int64_t units = 0;
    for (int i = 0; i < n; ++i) units += static_cast<int64_t>(terms[i] * per_unit);
    const double sum = static_cast<double>(units) * unit;  // exact: fewer than 53 significant bits
    acc = model.round_nearest ? static_cast<float>(sum) : float_toward_zero(sum);
    if (units == 0) acc = 0.0f;
  }
  return acc;
}

}  // namespace sim::mma
