// What `puzzle bench` writes: the JSON results (docs/report-format.md, "puzzle bench") and the SVG chart.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "model/bench_report.hpp"

namespace puzzle::cli {

nlohmann::json bench_to_json(const BenchReport& report, const std::string& tool_version);

// Bars of each kernel's GB/s (or TFLOP/s) per shape, with the copy bandwidth as a dashed line.
std::string bench_chart_svg(const BenchReport& report);

}  // namespace puzzle::cli
