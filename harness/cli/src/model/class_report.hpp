// Everything `puzzle grade --class` found out: each student's grade, for the console, the students' report
// files and the gradebook (report/grade_class_files.hpp).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "model/grade_report.hpp"

namespace puzzle::cli {

struct Student {
  std::string name;  // the folder's name, or the roster's
  std::filesystem::path folder;
};

struct StudentGrade {
  Student student;
  GradeReport report;  // its run.error says why a student got nothing (no puzzle file, say)
};

struct ClassReport {
  std::string command, created;
  std::vector<StudentGrade> students;  // in the roster's order, or by name
  double seconds = 0;
  std::string error;  // a usage or environment error that stopped the class's grading
  int exit_code = 0;

  bool nothing_graded() const;  // no student had a puzzle file
};

}  // namespace puzzle::cli
