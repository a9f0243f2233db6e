#include "judge/perf_figures.hpp"

#include "judge/device_peaks.hpp"
#include "report/text_format.hpp"

namespace puzzle::cli {
namespace {

double per_second(double amount, double time_ms) {
  return amount / (time_ms * 1e-3);
}

}  // namespace

double bench_rate(const PuzzleSpec& puzzle, const Params& params, double time_ms) {
  return puzzle.flops ? per_second(puzzle.flops(params), time_ms) / 1e12
                      : per_second(puzzle.min_bytes(params), time_ms) / 1e9;
}

void add_comparisons(const PuzzleSpec& puzzle, const DeviceInfo& device,
                     std::optional<double> solution_time_ms, CaseReport& report) {
  CaseResult& r = report.result;
  const double time_ms = r.record.time_ms;
  if (const auto floor_ms = fastest_possible_ms(puzzle, r.params, device);
      floor_ms && time_ms > 0 && time_ms < *floor_ms) {
    report.implausible_time = true;
    r.gbps = r.tflops = std::nullopt;
    r.notes.push_back("implausible time: " + fixed(time_ms, 4) + " ms is below the " + fixed(*floor_ms, 4) +
                      " ms this device needs at its peak for the case's minimum bytes and FLOPs: not a speed "
                      "(the kernels did not do the case's work each time they were timed)");
  }
  if (r.gbps && device.copy_gbps && *device.copy_gbps > 0)
    r.pct_of_copy = 100.0 * *r.gbps / *device.copy_gbps;
  if (!solution_time_ms || *solution_time_ms <= 0) return;
  if (puzzle.min_bytes) r.solution_gbps = per_second(puzzle.min_bytes(r.params), *solution_time_ms) / 1e9;
  if (puzzle.flops) report.solution_tflops = per_second(puzzle.flops(r.params), *solution_time_ms) / 1e12;
}

std::optional<std::string> minimum_traffic_note(const PuzzleSpec& puzzle, const TestCase& test,
                                                const nlohmann::json& sim_report) {
  if (!puzzle.min_bytes || !sim_report.is_object() || !sim_report.contains("traffic")) return std::nullopt;
  double moved = 0;
  for (const auto& t : sim_report["traffic"])
    moved += t.value("bytes_read", 0.0) + t.value("bytes_written", 0.0);
  const double minimum = puzzle.min_bytes(test.params);
  if (minimum <= 0) return std::nullopt;
  return "moved " + format_bytes(moved) + " to and from global memory, " + fixed(moved / minimum, 2) +
         "x the minimum of " + format_bytes(minimum);
}

}  // namespace puzzle::cli
