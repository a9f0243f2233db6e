// `grade --gradescope FILE`: Gradescope's results.json. A visible "build" test per puzzle (so that a
// compile error always reaches the student), then one test per case with its points, then the speed
// part where there is one. The total is the sum of the tests' scores.
#pragma once
#include <nlohmann/json.hpp>

#include "model/grade_report.hpp"

namespace puzzle::cli {

nlohmann::json gradescope_results(const GradeReport& report);

}  // namespace puzzle::cli
