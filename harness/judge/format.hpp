// Numbers in messages.
#pragma once
#include <string>

namespace puzzle {

// printf's %.<digits>g, with NaN and inf spelled "NaN", "inf", "-inf" whatever their sign bit or payload.
std::string format_number(double value, int digits = 3);

struct FormattedPair {
  std::string first, second;
};

// Both numbers with the fewest digits (at least `digits`) that tell them apart, so that a message about
// their difference shows one: "expected 0.07861, got 0.07859", not "expected 0.0786, got 0.0786".
FormattedPair format_distinct(double first, double second, int digits = 3);

}  // namespace puzzle
