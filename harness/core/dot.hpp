// Dot products of float rows in double, for the float64 references. Four running sums instead of one: a
// single sum waits on each addition before the next (latency-bound, about 4x slower), and the order of
// additions only moves the result by double rounding, far below any tolerance.
#pragma once
#include <cmath>
#include <cstdint>

namespace puzzle {

// sum over c of term(a[c] * b[c]), a and b widened to double.
template <class Term>
double sum_of_products(const float* a, const float* b, int64_t n, Term term) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t c = 0;
  for (; c + 4 <= n; c += 4) {
    s0 += term(static_cast<double>(a[c]) * b[c]);
    s1 += term(static_cast<double>(a[c + 1]) * b[c + 1]);
    s2 += term(static_cast<double>(a[c + 2]) * b[c + 2]);
    s3 += term(static_cast<double>(a[c + 3]) * b[c + 3]);
  }
  for (; c < n; ++c) s0 += term(static_cast<double>(a[c]) * b[c]);
  return (s0 + s1) + (s2 + s3);
}

inline double dot(const float* a, const float* b, int64_t n) {
  return sum_of_products(a, b, n, [](double x) { return x; });
}

inline double abs_dot(const float* a, const float* b, int64_t n) {  // sum |a[c] b[c]|
  return sum_of_products(a, b, n, [](double x) { return std::abs(x); });
}

}  // namespace puzzle
