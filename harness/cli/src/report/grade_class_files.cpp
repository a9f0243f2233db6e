#include "report/grade_class_files.hpp"

#include <cctype>
#include <sstream>

#include "report/grade_console.hpp"
#include "report/grade_files.hpp"
#include "report/grade_text.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {
namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? "\"\"" : std::string(1, c);
  return quoted + "\"";
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string row;
  for (size_t i = 0; i < fields.size(); ++i) row += (i ? "," : "") + csv_field(fields[i]);
  return row + "\n";
}

// Why a student's points are not all there, in a few words per puzzle.
std::string notes_of(const GradeReport& report) {
  std::string notes;
  const auto add = [&](const std::string& note) { notes += (notes.empty() ? "" : "; ") + note; };
  if (!report.run.error.empty()) add(report.run.error);
  for (const GradedPuzzle& p : report.puzzles) {
    const std::string puzzle = "puzzle " + std::to_string(p.report.spec->id) + ": ";
    if (p.state == GradeState::missing && report.run.error.empty()) add(puzzle + p.reason);
    if (!p.file_note.empty()) add(puzzle + p.file_note);
  }
  return notes;
}

// The student's grade as the console shows a single grade: header, a line per puzzle, the total.
std::string summary_text(const GradeReport& report) {
  std::ostringstream out;
  GradeConsole console(out, Style(false));
  console.header(report);
  for (size_t i = 0; i < report.puzzles.size(); ++i) console.puzzle_done(report, i);
  console.total(report);
  if (!report.run.error.empty()) out << "error: " << report.run.error << "\n";
  return out.str();
}

}  // namespace

std::string gradebook_csv(const ClassReport& report) {
  if (report.students.empty()) return csv_row({"student", "total", "max_points", "notes"});
  const GradeReport& first = report.students.front().report;
  std::vector<std::string> header{"student"};
  for (const GradedPuzzle& p : first.puzzles) {
    header.push_back(std::to_string(p.report.spec->id) + " " + p.report.spec->title + " (max " +
                     score_text(p.max_score()) + ")");
  }
  header.insert(header.end(), {"total", "max_points", "notes"});
  std::string csv = csv_row(header);
  for (const StudentGrade& s : report.students) {
    std::vector<std::string> row{s.student.name};
    for (const GradedPuzzle& p : s.report.puzzles) row.push_back(score_text(p.score()));
    row.resize(first.puzzles.size() + 1);  // a student whose grade stopped early has empty cells
    row.insert(row.end(),
               {score_text(s.report.score()), score_text(s.report.max_score()), notes_of(s.report)});
    csv += csv_row(row);
  }
  return csv;
}

std::filesystem::path student_folder(const std::filesystem::path& out, const std::string& name) {
  std::string safe = name;
  for (char& c : safe) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  }
  if (safe.empty() || safe == "." || safe == "..") safe = "_" + safe;
  return out / safe;
}

std::vector<std::string> write_class_reports(const std::filesystem::path& out, const ClassReport& report,
                                             const std::string& tool_version) {
  std::vector<std::string> failures;
  for (const StudentGrade& s : report.students) {
    const std::filesystem::path folder = student_folder(out, s.student.name);
    const GradeReportFiles files{.json = folder / "report.json", .gradescope = folder / "results.json"};
    for (const std::string& failure : write_grade_reports(files, s.report, tool_version))
      failures.push_back(failure);
    try {
      write_atomically(folder / "summary.txt", summary_text(s.report));
    } catch (const std::exception& e) {
      failures.push_back((folder / "summary.txt").string() + ": " + e.what());
    }
  }
  try {
    write_atomically(out / "gradebook.csv", gradebook_csv(report));
  } catch (const std::exception& e) {
    failures.push_back((out / "gradebook.csv").string() + ": " + e.what());
  }
  return failures;
}

}  // namespace puzzle::cli
