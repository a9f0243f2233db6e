#include "families/matmul_judge.hpp"

#include <cmath>
#include <stdexcept>

#include "families/matmul_diagnoses.hpp"
#include "families/matmul_family.hpp"
#include "parallel_for.hpp"

namespace puzzle::puzzles::matmul {
namespace {

// c[i, j] = sum_k a[i, k] b[j, k]: the products of bf16 values are exact in double, and so is the sum up
// to 2^-53 of its terms.
void reference(const Params& p, const Buffers& in, RefBuffers& out) {
  const Shape s = shape_of(p);
  const float* a = in[0].data();
  const float* b = in[1].data();
  double* c = out[0].data();
  parallel_for(s.m, [&](int64_t i) {
    for (int64_t j = 0; j < s.n; ++j) {
      double sum = 0;
      for (int64_t x = 0; x < s.k; ++x) sum += static_cast<double>(a[i * s.k + x]) * b[j * s.k + x];
      c[i * s.n + j] = sum;
    }
  });
}

// A right kernel adds k exact products in float: summed one at a time with rounding to nearest, its
// error is at most (k - 1) 2^-24 sum |a_x b_x|; the tensor cores, which align each block of products to
// the largest with a few extra bits and truncate, stay within k 2^-23 of it (sim/include/sim/mma_model.h).
// We allow twice that, k 2^-22 ||a_i|| ||b_j|| (Cauchy-Schwarz bounds sum |a_x b_x| by the rows' norms, at
// O(k) per row instead of O(k) per element). Wrong kernels are off by far more: one product of 16 missing
// moves c by ~1, a sum kept in bf16 by up to |c| 2^-8, against 64 * 2^-22 * 8 * 8 = 1e-3 at k = 64.
void allowance(const Params& p, const Buffers& in, RefBuffers& out) {
  const Shape s = shape_of(p);
  const auto norms = [&](const float* rows, int64_t count) {
    std::vector<double> norm(count);
    for (int64_t r = 0; r < count; ++r) {
      double sum = 0;
      for (int64_t x = 0; x < s.k; ++x) sum += static_cast<double>(rows[r * s.k + x]) * rows[r * s.k + x];
      norm[r] = std::sqrt(sum);
    }
    return norm;
  };
  const std::vector<double> a_norm = norms(in[0].data(), s.m), b_norm = norms(in[1].data(), s.n);
  const double per_norm = static_cast<double>(s.k) * 0x1p-22;
  double* bound = out[0].data();
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.n; ++j) bound[i * s.n + j] = per_norm * a_norm[i] * b_norm[j];
  }
}

}  // namespace

Judge judge(const std::vector<std::string>& extra_diagnoses) {
  if (!extra_diagnoses.empty())
    throw std::logic_error("the matmul judge has no diagnosis \"" + extra_diagnoses[0] + "\"");
  return {.reference = reference, .diagnose = diagnose, .allowance = allowance};
}

}  // namespace puzzle::puzzles::matmul
