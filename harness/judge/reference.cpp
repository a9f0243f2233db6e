#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace puzzle::reference {

void softmax_row(const float* x, int64_t n, double* y) {
  double max = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < n; ++i) max = std::max(max, static_cast<double>(x[i]));
  if (max == -std::numeric_limits<double>::infinity()) {
    std::fill(y, y + n, std::numeric_limits<double>::quiet_NaN());
    return;
  }
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    y[i] = std::exp(static_cast<double>(x[i]) - max);  // exp(-inf) = 0
    sum += y[i];
  }
  for (int64_t i = 0; i < n; ++i) y[i] /= sum;
}

}  // namespace puzzle::reference
