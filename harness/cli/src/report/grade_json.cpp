#include "report/grade_json.hpp"

#include "report/check_json.hpp"

namespace puzzle::cli {

using nlohmann::json;

nlohmann::json grade_to_json(const GradeReport& report, const std::string& tool_version) {
  json j = report_to_json(report.as_check_report(), tool_version);
  j["kind"] = "grade";
  j["complete"] = report.complete;
  j["score"] = report.score();
  j["max_score"] = report.max_score();
  j["seconds"] = report.seconds;
  j["time_budget_s"] = report.time_budget_s ? json(*report.time_budget_s) : json(nullptr);
  j["seed_source"] = to_string(report.seed_source);
  j["submission"] = report.submission ? json(report.submission->string()) : json(nullptr);
  j["notes"] = report.notes;
  for (size_t i = 0; i < report.puzzles.size(); ++i) {
    const GradedPuzzle& p = report.puzzles[i];
    json& entry = j["puzzles"][i];
    entry["status"] = p.status();
    entry["not_graded_reason"] = p.reason.empty() ? json(nullptr) : json(p.reason);
    entry["seconds"] = p.seconds;
    entry["points"] = p.score();
    entry["max_points"] = p.max_score();
    entry["weight"] = p.weight ? json(*p.weight) : json(nullptr);
    entry["file_note"] = p.file_note.empty() ? json(nullptr) : json(p.file_note);
    entry["performance"] =
        p.performance ? json{{"points", p.performance->points},
                             {"max_points", p.performance->max_points},
                             {"ratio", p.performance->ratio ? json(*p.performance->ratio) : json(nullptr)},
                             {"message", p.performance->message}}
                      : json(nullptr);
  }
  return j;
}

}  // namespace puzzle::cli
