// Writing a grade's reports: each atomically (a reader sees the previous report or the new one, never half
// of one), rewritten after every puzzle, so that a grader killed half way still leaves the puzzles graded
// so far.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/grade_report.hpp"

namespace puzzle::cli {

struct GradeReportFiles {
  std::optional<std::filesystem::path> json, gradescope, junit;
  bool any() const { return json || gradescope || junit; }
};

// Writes every report named; returns the files that could not be written, with why ("FILE: reason").
std::vector<std::string> write_grade_reports(const GradeReportFiles& files, const GradeReport& report,
                                             const std::string& tool_version);

// The report files named on a `grade` command line that did not parse (--json F and --json=F forms).
GradeReportFiles report_files_in(const std::vector<std::string>& argv);

}  // namespace puzzle::cli
