#include "model/grade_report.hpp"

#include <algorithm>

namespace puzzle::cli {

const char* to_string(SeedSource s) {
  switch (s) {
    case SeedSource::fixed:
      return "fixed";
    case SeedSource::option:
      return "option";
    case SeedSource::secret:
      return "secret";
  }
  return "?";
}

double GradedPuzzle::case_scale() const {
  if (!weight) return 1;
  return report.max_score > 0 ? *weight / report.max_score : 0;
}

double GradedPuzzle::score() const {
  return report.score * case_scale() + (performance ? performance->points : 0);
}

double GradedPuzzle::max_score() const {
  return (weight ? *weight : report.max_score) + (performance ? performance->max_points : 0);
}

std::string GradedPuzzle::status() const {
  switch (state) {
    case GradeState::graded:
      return to_string(report.status);
    case GradeState::missing:
      return "missing";
    case GradeState::pending:
    case GradeState::out_of_time:
      return "not_run";
  }
  return "?";
}

double GradeReport::score() const {
  double total = 0;
  for (const auto& p : puzzles) total += p.score();
  return total;
}

double GradeReport::max_score() const {
  double total = 0;
  for (const auto& p : puzzles) total += p.max_score();
  return total;
}

bool GradeReport::found_no_file() const {
  return submission && !puzzles.empty() &&
         std::all_of(puzzles.begin(), puzzles.end(),
                     [](const GradedPuzzle& p) { return p.state == GradeState::missing; });
}

CheckReport GradeReport::as_check_report() const {
  CheckReport check = run;
  check.puzzles.clear();
  for (const auto& p : puzzles) check.puzzles.push_back(p.report);
  return check;
}

}  // namespace puzzle::cli
