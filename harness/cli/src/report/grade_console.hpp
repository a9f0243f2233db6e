// `puzzle grade` on the console: a header, a line per puzzle as it is graded (status, score, time), and
// the total with the time spent.
#pragma once
#include <ostream>

#include "model/grade_report.hpp"
#include "report/style.hpp"

namespace puzzle::cli {

class GradeConsole {
 public:
  GradeConsole(std::ostream& out, Style style) : out_(out), style_(style) {}

  void header(const GradeReport& report);
  void puzzle_started(const GradeReport& report, size_t index);
  void puzzle_done(const GradeReport& report, size_t index);
  void total(const GradeReport& report);

 private:
  void puzzle_name(const GradedPuzzle& p);

  std::ostream& out_;
  Style style_;
  size_t title_width_ = 0;
  bool line_open_ = false;  // a puzzle's name is printed, its result not yet
};

}  // namespace puzzle::cli
