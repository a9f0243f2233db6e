// Everything `puzzle grade` found out: one result, rendered as our JSON, Gradescope's results.json and
// JUnit XML (report/grade_json.hpp, report/grade_gradescope.hpp, report/grade_junit.hpp).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/check_report.hpp"

namespace puzzle::cli {

enum class SeedSource { fixed, option, secret };  // the built-in default, --seed, the grader's secret
const char* to_string(SeedSource s);              // "fixed", "option", "secret"

enum class GradeState {
  pending,      // not reached yet: an interim report, written while grading goes on
  graded,       // built (or not) and run: `report` says how it went
  missing,      // the submission has no file for this puzzle
  out_of_time,  // the time budget ran out before this puzzle
};

// The optional speed part, on a GPU only: points for the kernel's speed relative to the reference
// solution measured in the same run.
struct PerformancePart {
  double points = 0, max_points = 0;
  std::optional<double> ratio;  // geometric mean of kernel / solution over the timed cases
  std::string message;
};

struct GradedPuzzle {
  PuzzleReport report;  // always has spec, file and every counted case (those not run as skipped)
  GradeState state = GradeState::pending;
  std::string reason;  // why it was not graded (missing, out_of_time, pending)
  double seconds = 0;  // wall time spent on it, build included
  std::optional<PerformancePart> performance;
  // The course's points for the puzzle (--course, --weights): its cases' points are scaled to sum to it.
  // Absent: a puzzle is worth its cases' points.
  std::optional<double> weight;
  std::string file_note;  // which file was graded when that was a choice: a near name, other candidates

  double case_scale() const;  // what a case's points are multiplied by: weight / the cases' maximum, or 1
  double score() const;
  double max_score() const;
  std::string status() const;  // the puzzle's status, or "missing" / "not_run"
};

struct GradeReport {
  CheckReport run;  // command, created, backend, device, seed, error; run.puzzles is unused
  SeedSource seed_source = SeedSource::fixed;
  std::optional<std::filesystem::path> submission;  // absent: the repository's puzzles/
  std::vector<GradedPuzzle> puzzles;                // in registry order
  std::optional<double> time_budget_s;
  double seconds = 0;              // so far
  bool complete = false;           // false in the interim reports written after each puzzle
  std::vector<std::string> notes;  // e.g. why the performance part is not graded

  double score() const;
  double max_score() const;
  CheckReport as_check_report() const;  // run with puzzles[], for the check report's JSON
  bool found_no_file() const;           // a submission in which no selected puzzle had a file
};

}  // namespace puzzle::cli
