// `puzzle grade --class` on the console: what is graded, a line per student as each is done with a
// progress bar (a line each, so that a log shows it too), and where the reports and the gradebook went.
#pragma once
#include <filesystem>
#include <ostream>

#include "model/class_report.hpp"
#include "report/style.hpp"

namespace puzzle::cli {

class ClassConsole {
 public:
  ClassConsole(std::ostream& out, Style style) : out_(out), style_(style) {}

  void header(const ClassReport& report, const std::filesystem::path& from, size_t jobs);
  void student_done(const ClassReport& report, size_t index, size_t done);
  void written(const ClassReport& report, const std::filesystem::path& out);

 private:
  std::ostream& out_;
  Style style_;
  size_t name_width_ = 8;
};

}  // namespace puzzle::cli
