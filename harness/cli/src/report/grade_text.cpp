#include "report/grade_text.hpp"

#include <cmath>

#include "report/text_format.hpp"

namespace puzzle::cli {

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
