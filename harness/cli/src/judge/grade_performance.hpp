// The optional speed part of a grade (a GPU only): up to `max_points` per puzzle for the kernel's speed
// relative to the reference solution, timed on the same GPU in the same run.
#pragma once
#include "model/grade_report.hpp"

namespace puzzle::cli {

// Full points at the solution's speed or faster, proportionally less below it (the geometric mean of
// kernel / solution over the timed cases). Nothing for a puzzle whose cases do not all pass.
PerformancePart performance_part(const PuzzleReport& puzzle, double max_points);

// A puzzle's speed part in a grade: none unless speed is graded (`max_points` > 0 on a GPU); 0 of
// `max_points` for a puzzle not graded (missing, not run), so that every submission has the same maximum.
std::optional<PerformancePart> speed_part(const GradedPuzzle& puzzle, Backend backend, double max_points);

}  // namespace puzzle::cli
