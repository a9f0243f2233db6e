#include "report/grade_console.hpp"

#include <algorithm>

#include "report/grade_text.hpp"
#include "report/text_format.hpp"

namespace puzzle::cli {
namespace {

Tone tone_of(const GradedPuzzle& p) {
  if (p.state == GradeState::graded && p.report.status == PuzzleStatus::passed) return Tone::good;
  return p.state == GradeState::graded ? Tone::bad : Tone::warn;
}

std::string why(const GradedPuzzle& p) {
  if (p.state != GradeState::graded) return p.reason;
  if (!p.report.build.ok) return p.report.build.message;
  for (const auto& c : p.report.cases) {
    if (c.result.status != CaseStatus::passed && c.result.status != CaseStatus::skipped)
      return c.result.message;
  }
  return p.report.build.cuda_rules.empty() ? "not checked against CUDA's rules" : "";
}

}  // namespace

void GradeConsole::header(const GradeReport& report) {
  for (const auto& p : report.puzzles) title_width_ = std::max(title_width_, p.report.spec->title.size());
  const size_t n = report.puzzles.size();
  out_ << style_("puzzle grade: " + std::to_string(n) + " puzzle" + (n == 1 ? "" : "s") + " from " +
                     (report.submission ? report.submission->string() : std::string("puzzles/")),
                 Tone::bold)
       << "\n";
  out_ << "backend: "
       << (*report.run.backend == Backend::gpu ? "GPU, " + report.run.device.name
                                               : "simulator (" + report.run.backend_reason + ")")
       << "\nseed:    " << seed_text(report) << "\n";
  if (report.time_budget_s) out_ << "budget:  " << format_seconds(*report.time_budget_s) << " in all\n";
  for (const auto& note : report.notes) out_ << style_("note: " + note, Tone::warn) << "\n";
  out_ << "\n";
  out_.flush();
}

void GradeConsole::puzzle_name(const GradedPuzzle& p) {
  const int id = p.report.spec->id;
  out_ << "  " << padded((id < 10 ? " " : "") + std::to_string(id), 4)
       << padded(p.report.spec->title, title_width_ + 2);
}

void GradeConsole::puzzle_started(const GradeReport& report, size_t index) {
  puzzle_name(report.puzzles[index]);
  out_.flush();
  line_open_ = true;
}

void GradeConsole::puzzle_done(const GradeReport& report, size_t index) {
  const GradedPuzzle& p = report.puzzles[index];
  if (!line_open_) puzzle_name(p);
  line_open_ = false;
  const std::string seconds = p.state == GradeState::graded ? format_seconds(p.seconds) : "-";
  const std::string reason = why(p);
  out_ << style_(padded(p.status(), 15), tone_of(p))
       << padded(score_text(p.score()) + "/" + score_text(p.max_score()), 9)
       << (reason.empty() ? seconds : padded(seconds, 9) + reason) << "\n";
  if (!p.file_note.empty()) out_ << "        " << style_(p.file_note, Tone::warn) << "\n";
  out_.flush();
}

void GradeConsole::total(const GradeReport& report) {
  out_ << "\n"
       << style_("total: " + score_text(report.score()) + "/" + score_text(report.max_score()) + " points",
                 Tone::bold)
       << " in " << format_seconds(report.seconds);
  if (report.time_budget_s) out_ << " (budget " << format_seconds(*report.time_budget_s) << ")";
  out_ << "\n";
  out_.flush();
}

}  // namespace puzzle::cli
