// `grade --json FILE`: the check report of docs/report-format.md with every graded puzzle, plus the
// grade's own fields (docs/grading.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "model/grade_report.hpp"

namespace puzzle::cli {

nlohmann::json grade_to_json(const GradeReport& report, const std::string& tool_version);

}  // namespace puzzle::cli
