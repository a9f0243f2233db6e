#include "model/class_report.hpp"

#include <algorithm>

namespace puzzle::cli {

bool ClassReport::nothing_graded() const {
  return !students.empty() && std::all_of(students.begin(), students.end(),
                                          [](const StudentGrade& s) { return s.report.found_no_file(); });
}

}  // namespace puzzle::cli
