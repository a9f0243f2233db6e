// How a tensor core sums D = A*B + C for one element of an mma with 16-bit inputs and float
// accumulators: the model the simulator computes with. Products of two f16/bf16 values are exact. The
// hardware adds them in blocks: the accumulator and `block` products are aligned to the largest exponent
// among them, bits beyond `extra_bits` past float's 24 are cut off, the aligned values are added
// exactly and the sum is normalized to float by truncation (or, with `round_nearest`, to nearest even).
// That is what measurements of V100/A100 tensor cores report (Fasi, Higham, Mikaitis, Pranesh, "Numerical
// behavior of NVIDIA tensor cores", PeerJ CS 2021); the block size and extra bits of H100's mma.sync
// are settled by tests/gpu/mma_bits.cu, which tries each candidate against the device.
// Plain C++17, so that the GPU comparison program (nvcc) includes it too.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace sim::mma {

struct Model {
  int block;           // products summed at once with the accumulator; 0: one fmaf per product, in k order
  int extra_bits;      // alignment bits kept beyond float's 24-bit significand
  bool round_nearest;  // normalization: to nearest even instead of toward zero
};

// The assumption until a GPU run says otherwise (see tests/gpu/README.md).
constexpr Model kDeviceModel{8, 3, false};

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

// acc + sum of products[0..count), products exact (each the product of two 16-bit values).
inline float accumulate(float acc, const double* products, int count, Model model) {
  if (model.block == 0) {
    for (int i = 0; i < count; ++i) acc = std::fma(static_cast<float>(products[i]), 1.0f, acc);
    return acc;
  }
  for (int start = 0; start < count; start += model.block) {
    const int end = start + model.block < count ? start + model.block : count;
    double terms[65];
    int n = 0;
    terms[n++] = acc;
    for (int i = start; i < end; ++i) terms[n++] = products[i];
    bool finite = true, all_negative_zero = true;
    int emax = -100000;
    for (int i = 0; i < n; ++i) {
      finite = finite && std::isfinite(terms[i]);
      all_negative_zero = all_negative_zero && terms[i] == 0 && std::signbit(terms[i]);
      if (terms[i] != 0 && std::isfinite(terms[i])) emax = std::max(emax, std::ilogb(terms[i]));
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
    const double unit = std::ldexp(1.0, emax - 23 - model.extra_bits);
    int64_t units = 0;  // each term truncated to whole units: below 2^(25 + extra_bits) apiece
    for (int i = 0; i < n; ++i) units += static_cast<int64_t>(std::trunc(terms[i] / unit));
    const double sum = static_cast<double>(units) * unit;  // exact: fewer than 53 significant bits
    acc = model.round_nearest ? static_cast<float>(sum) : float_toward_zero(sum);
    if (units == 0) acc = 0.0f;
  }
  return acc;
}

}  // namespace sim::mma
