#include "grade_report.hpp"

#include <cmath>

#include "text_format.hpp"

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

double GradedPuzzle::score() const {
  return report.score + (performance ? performance->points : 0);
}

double GradedPuzzle::max_score() const {
  return report.max_score + (performance ? performance->max_points : 0);
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

CheckReport GradeReport::as_check_report() const {
  CheckReport check = run;
  check.puzzles.clear();
  for (const auto& p : puzzles) check.puzzles.push_back(p.report);
  return check;
}

std::string score_text(double points) {
  const double rounded = std::round(points * 10) / 10;
  return rounded == std::floor(rounded) ? std::to_string(static_cast<long long>(rounded)) : fixed(rounded, 1);
}

std::string case_explanation(const CaseReport& c) {
  const CaseResult& r = c.result;
  std::string text = r.message + "\n";
  for (const auto& d : r.diagnoses)
    text += (d.id.starts_with("sim_") ? "simulator: " : "why: ") + d.message + "\n";
  for (const auto& note : r.notes) text += "note: " + note + "\n";
  return text;
}

std::string seed_text(const GradeReport& report) {
  switch (report.seed_source) {
    case SeedSource::fixed:
      return std::to_string(report.run.seed) + " (the default)";
    case SeedSource::option:
      return std::to_string(report.run.seed) + " (--seed)";
    case SeedSource::secret:
      return "secret";
  }
  return "?";
}

std::string clipped_text(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  return text.substr(0, max_bytes) + "\n[... " + std::to_string(text.size() - max_bytes) +
         " more bytes not shown]\n";
}

}  // namespace puzzle::cli
