// Speed figures beside the child's timing, and what the simulator can say instead of a timing.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "model/check_report.hpp"

namespace puzzle::cli {

// judge_case gives GB/s and TFLOP/s from the case's time; this adds the share of the device's copy
// bandwidth, and the reference solution's figures from its time on the same case. A time below what the
// device can do (device_peaks.hpp) loses its figures and gets a note instead.
void add_comparisons(const PuzzleSpec& puzzle, const DeviceInfo& device,
                     std::optional<double> solution_time_ms, CaseReport& report);

// "moved 260.0 KB, 2.00x the minimum of 130.0 KB" from the simulator's traffic counters; nullopt
// without counters or a byte model.
std::optional<std::string> minimum_traffic_note(const PuzzleSpec& puzzle, const TestCase& test,
                                                const nlohmann::json& sim_report);

// `puzzle bench`'s figure for a time on a shape: TFLOP/s for a puzzle that counts FLOPs, else GB/s.
double bench_rate(const PuzzleSpec& puzzle, const Params& params, double time_ms);

}  // namespace puzzle::cli
