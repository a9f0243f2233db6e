// The pieces of text every rendering of a grade shares: scores, a case's explanation, the seed.
#pragma once
#include <cstddef>
#include <string>

#include "model/grade_report.hpp"

namespace puzzle::cli {

// "12", "12.5": scores as the reports print them.
std::string score_text(double points);

// A case in a few lines for a student: what happened, why we think so, and the notes.
std::string case_explanation(const CaseReport& c);

// "20261121 (the default)", "12345 (--seed)" or "secret": never the secret value, which a student could
// otherwise copy into a kernel that hard-codes outputs.
std::string seed_text(const GradeReport& report);

// The text of `text` cut to `max_bytes`, with a line saying how much was left out.
std::string clipped_text(const std::string& text, size_t max_bytes);

}  // namespace puzzle::cli
