#include "format.hpp"

#include <cmath>
#include <cstdio>

namespace puzzle {

std::string format_number(double value, int digits) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

FormattedPair format_distinct(double first, double second, int digits) {
  constexpr int kMaxDigits = 17;  // a double's round-trip precision: distinct values print distinctly
  FormattedPair pair{format_number(first, digits), format_number(second, digits)};
  while (pair.first == pair.second && digits < kMaxDigits) {
    ++digits;
    pair = {format_number(first, digits), format_number(second, digits)};
  }
  return pair;
}

}  // namespace puzzle
