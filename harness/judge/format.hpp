// Numbers in messages.
#pragma once
#include <string>

namespace puzzle {

// printf's %.<digits>g, with NaN and inf spelled "NaN", "inf", "-inf" whatever their sign bit or payload.
std::string format_number(double value, int digits = 3);

}  // namespace puzzle
