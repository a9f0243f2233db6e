#include "report/grade_class_console.hpp"

#include <algorithm>

#include "report/grade_text.hpp"
#include "report/text_format.hpp"

namespace puzzle::cli {
namespace {

constexpr int kBarWidth = 20;

std::string bar(size_t done, size_t total) {
  const size_t filled = total ? done * kBarWidth / total : 0;
  return "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '-') + "] " + std::to_string(done) +
         "/" + std::to_string(total);
}

// "4 passed, 1 failed, 1 missing" from the puzzles' statuses.
std::string statuses(const GradeReport& report) {
  std::vector<std::pair<std::string, int>> counts;
  for (const GradedPuzzle& p : report.puzzles) {
    const std::string status = p.status();
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == status; });
    if (it == counts.end()) {
      counts.emplace_back(status, 1);
    } else {
      ++it->second;
    }
  }
  std::string text;
  for (const auto& [status, n] : counts)
    text += (text.empty() ? "" : ", ") + std::to_string(n) + " " + status;
  return text;
}

}  // namespace

void ClassConsole::header(const ClassReport& report, const std::filesystem::path& from, size_t jobs) {
  for (const StudentGrade& s : report.students) name_width_ = std::max(name_width_, s.student.name.size());
  const size_t n = report.students.size();
  out_ << style_("puzzle grade: " + std::to_string(n) + " student" + (n == 1 ? "" : "s") + " from " +
                     from.string() + ", " + std::to_string(jobs) + " at a time",
                 Tone::bold)
       << "\n\n";
  out_.flush();
}

void ClassConsole::student_done(const ClassReport& report, size_t index, size_t done) {
  const StudentGrade& s = report.students[index];
  const GradeReport& r = s.report;
  out_ << bar(done, report.students.size()) << "  " << padded(s.student.name, name_width_ + 2)
       << padded(score_text(r.score()) + "/" + score_text(r.max_score()), 10)
       << padded(format_seconds(r.seconds), 8);
  if (r.found_no_file()) {
    out_ << style_("no puzzle file", Tone::warn);
  } else if (!r.run.error.empty()) {
    out_ << style_("stopped: " + r.run.error, Tone::bad);
  } else {
    out_ << statuses(r);
  }
  out_ << "\n";
  out_.flush();
}

void ClassConsole::written(const ClassReport& report, const std::filesystem::path& out) {
  out_ << "\n"
       << style_("graded " + std::to_string(report.students.size()) + " students in " +
                     format_seconds(report.seconds),
                 Tone::bold)
       << "\ngradebook: " << (out / "gradebook.csv").string() << "\nreports:   " << out.string()
       << "/STUDENT/ (report.json, results.json, summary.txt)\n";
  out_.flush();
}

}  // namespace puzzle::cli
