#include "judge/grade_performance.hpp"

#include <algorithm>
#include <cmath>

#include "report/text_format.hpp"

namespace puzzle::cli {
namespace {

// Two timings of the same kernel in one run differ by a few percent (measured on an H100: the reference
// solution graded against itself got 99%), so a kernel as fast as the solution must not lose points to
// that noise: full points from 95% of the solution's speed on.
constexpr double kFullPointsRatio = 0.95;

}  // namespace

PerformancePart performance_part(const PuzzleReport& puzzle, double max_points) {
  PerformancePart part{.max_points = max_points};
  if (puzzle.status != PuzzleStatus::passed) {
    part.message = "speed counts only when every case passes";
    return part;
  }
  for (const auto& c : puzzle.cases) {
    if (c.implausible_time) {
      part.message = "no speed points: case " + c.result.name + " was timed faster than the GPU can run it";
      return part;
    }
  }
  double log_sum = 0;
  int timed = 0;
  std::string estimated_on;  // the simulator's estimates stand in for timings
  for (const auto& c : puzzle.cases) {
    const CaseResult& r = c.result;
    std::optional<double> ratio;
    if (r.tflops && c.solution_tflops && *c.solution_tflops > 0) {
      ratio = *r.tflops / *c.solution_tflops;
    } else if (r.gbps && r.solution_gbps && *r.solution_gbps > 0) {
      ratio = *r.gbps / *r.solution_gbps;
    } else if (c.estimate && c.estimate->solution_ms && c.estimate->ms > 0) {
      ratio = *c.estimate->solution_ms / c.estimate->ms;
      estimated_on = c.estimate->gpu;
    }
    if (!ratio || *ratio <= 0) continue;
    log_sum += std::log(*ratio);
    ++timed;
  }
  if (timed == 0) {
    part.message = "no timed case has a figure for both your kernel and the solution";
    return part;
  }
  part.ratio = std::exp(log_sum / timed);
  part.points = std::round(max_points * std::min(1.0, *part.ratio / kFullPointsRatio) * 10) / 10;
  part.message = fixed(*part.ratio * 100, 0) + "% of the reference solution's speed over " +
                 std::to_string(timed) + " timed case" + (timed == 1 ? "" : "s") +
                 (estimated_on.empty() ? "" : " (estimated on the simulator for an " + estimated_on + ")");
  return part;
}

std::optional<PerformancePart> speed_part(const GradedPuzzle& puzzle, double max_points) {
  if (max_points <= 0) return std::nullopt;
  if (puzzle.state != GradeState::graded)
    return PerformancePart{.max_points = max_points, .message = "not graded: " + puzzle.reason};
  return performance_part(puzzle.report, max_points);
}

}  // namespace puzzle::cli
