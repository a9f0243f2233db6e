// One element of an mma's D = A * B + C as the simulator computes it: the tensor core's rounding
// (sim/mma_model.h) when cases run, the plain sum in a speed-estimate run (no data there; the exact
// model was over half of puzzle 11's estimate time).
#pragma once
#include "core/work_counters.hpp"
#include "sim/mma_model.h"

namespace sim::ptx {

// a_exponents, b_exponents: mma::exponent_of of each operand (mma_model.h's accumulate).
inline float mma_sum(float acc, const double* a, const double* b, int count, mma::Model model,
                     int operand_min_exponent, const int* a_exponents, const int* b_exponents) {
  if (!work::counting())
    return mma::accumulate(acc, a, b, count, model, operand_min_exponent, a_exponents, b_exponents);
  // The sum in double, rounded to float once: what is counted depends on the values only where a kernel
  // branches on them.
  double sum = acc;
  for (int i = 0; i < count; ++i) sum += a[i] * b[i];
  return static_cast<float>(sum);
}

}  // namespace sim::ptx
