// Values as every JSON report of ours writes them.
#pragma once
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

namespace puzzle::cli {

// JSON has no NaN or infinity; they matter here ("got NaN"), so they become strings.
inline nlohmann::json json_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

inline nlohmann::json json_number(const std::optional<double>& value) {
  return value ? json_number(*value) : nlohmann::json(nullptr);
}

}  // namespace puzzle::cli
