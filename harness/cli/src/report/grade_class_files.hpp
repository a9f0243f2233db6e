// What `puzzle grade --class` writes under its --out folder: each student's reports, as a single grade
// writes them (STUDENT/report.json, STUDENT/results.json for Gradescope, STUDENT/summary.txt), and the
// gradebook, gradebook.csv: a row per student with each puzzle's points and the total.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "model/class_report.hpp"

namespace puzzle::cli {

// student, a column per puzzle ("1 Row softmax (max 10)"), total, max_points, notes (missing files, the
// file graded among several, why a student got nothing). Fields with commas or quotes are quoted.
std::string gradebook_csv(const ClassReport& report);

// The student's folder under `out`: the name with any character but letters, digits, '.', '-' and '_'
// made '_'.
std::filesystem::path student_folder(const std::filesystem::path& out, const std::string& name);

// Writes every student's reports and the gradebook; returns the files that could not be written.
std::vector<std::string> write_class_reports(const std::filesystem::path& out, const ClassReport& report,
                                             const std::string& tool_version);

}  // namespace puzzle::cli
