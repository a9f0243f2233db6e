// The optional speed part of a grade: up to `max_points` per puzzle for the kernel's speed relative to the
// reference solution, timed on the same GPU in the same run, or on the simulator estimated for the same GPU
// (docs/simulator.md, "Estimated speed").
#pragma once
#include "model/grade_report.hpp"

namespace puzzle::cli {

// Full points at the solution's speed or faster, proportionally less below it (the geometric mean of
// kernel / solution over the timed cases). Nothing for a puzzle whose cases do not all pass.
PerformancePart performance_part(const PuzzleReport& puzzle, double max_points);

// A puzzle's speed part in a grade: none unless speed is graded (`max_points` > 0); 0 of `max_points` for a
// puzzle not graded (missing, not run), so that every submission has the same maximum.
std::optional<PerformancePart> speed_part(const GradedPuzzle& puzzle, double max_points);

}  // namespace puzzle::cli
