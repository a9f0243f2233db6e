#include "report/grade_gradescope.hpp"

#include <cmath>

#include "report/grade_text.hpp"
#include "report/text_format.hpp"

namespace puzzle::cli {
namespace {

using nlohmann::json;

constexpr size_t kMaxTestOutputBytes = 8 * 1024;  // per test: Gradescope pages get slow with huge outputs

json test(const std::string& name, const std::string& number, double score, double max_score, bool passed,
          const std::string& output) {
  return {{"name", name},
          {"number", number},
          {"score", score},
          {"max_score", max_score},
          {"status", passed ? "passed" : "failed"},
          {"output", clipped_text(output, kMaxTestOutputBytes)},
          {"visibility", "visible"}};
}

std::string build_output(const GradedPuzzle& p) {
  if (p.state != GradeState::graded) return "not graded: " + p.reason + "\n";
  const BuildInfo& b = p.report.build;
  if (b.ok && b.cuda_rules.empty())
    return "built in " + format_seconds(b.seconds) + "; " + kNotCheckedAgainstCuda + "\n";
  if (b.ok) return "built in " + format_seconds(b.seconds) + "\n";
  return b.message + "\n\n" + b.log;
}

std::string backend_text(const GradeReport& report) {
  if (*report.run.backend == Backend::gpu) return "the GPU (" + report.run.device.name + ")";
  return "the CPU simulator";
}

std::string summary(const GradeReport& report) {
  std::string text;
  if (!report.run.error.empty()) text += "Grading stopped: " + report.run.error + "\n\n";
  if (!report.complete) text += "Grading did not finish; the puzzles marked not_run were not reached.\n\n";
  if (report.run.backend) {
    text += "Graded on " + backend_text(report) + " in " + format_seconds(report.seconds) +
            "; seed: " + seed_text(report) + ".\n";
  }
  for (const auto& p : report.puzzles) {
    text += "Puzzle " + std::to_string(p.report.spec->id) + " (" + p.report.spec->title + "): " + p.status() +
            ", " + score_text(p.score()) + "/" + score_text(p.max_score()) + "\n";
  }
  for (const auto& note : report.notes) text += note + "\n";
  text += "Total: " + score_text(report.score()) + "/" + score_text(report.max_score()) + "\n";
  return text;
}

}  // namespace

nlohmann::json gradescope_results(const GradeReport& report) {
  json tests = json::array();
  for (const GradedPuzzle& p : report.puzzles) {
    const PuzzleSpec& spec = *p.report.spec;
    const std::string prefix = "Puzzle " + std::to_string(spec.id) + " (" + spec.title + "): ";
    const std::string number = std::to_string(spec.id) + ".";
    int case_number = 0;
    if (p.state == GradeState::graded) {
      const std::string note = p.file_note.empty() ? "" : p.file_note + "\n";
      tests.push_back(test(prefix + "build", number + "0", 0, 0, p.report.build.ok, note + build_output(p)));
      const double scale = p.case_scale();  // the course's points for the puzzle, shared out over its cases
      for (const CaseReport& c : p.report.cases) {
        if (c.needs_gpu) continue;  // worth nothing where the grader has no GPU
        tests.push_back(test(prefix + "case " + c.result.name + " (" + shape_of(c.result.params) + ")",
                             number + std::to_string(++case_number), c.result.points * scale,
                             c.result.max_points * scale, c.result.status == CaseStatus::passed,
                             case_explanation(c)));
      }
    } else {  // missing or not reached: one test holds the puzzle's points, not one per case never run
      tests.push_back(test(prefix + p.status(), number + "0", 0, p.weight.value_or(p.report.max_score), false,
                           build_output(p)));
    }
    if (p.performance) {
      const PerformancePart& perf = *p.performance;
      tests.push_back(test(prefix + "speed", number + std::to_string(++case_number), perf.points,
                           perf.max_points, perf.points >= perf.max_points, perf.message + "\n"));
    }
  }
  return {
      {"score", report.score()},       {"execution_time", static_cast<int64_t>(std::ceil(report.seconds))},
      {"output", summary(report)},     {"visibility", "visible"},
      {"stdout_visibility", "hidden"}, {"tests", tests}};
}

}  // namespace puzzle::cli
