// The learner's progress, kept in .puzzle/progress.json at the root of the repository (git-ignored):
// per puzzle the last check's status and date, when it last passed, the best speed of a passing check, the
// last hint shown. A pass is kept: a failing run after it (an experiment under `watch`) does not undo it.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "model/check_report.hpp"

namespace puzzle::cli {

struct PuzzleProgress {
  std::string status;       // "passed", "failed", ... (empty: never checked)
  std::string date;         // of that check, ISO 8601
  std::string passed_date;  // of the last passing check; empty: never passed
  std::optional<double> best_gbps, best_tflops;
  int hint_level = 0;  // the highest hint level shown so far
};

class ProgressStore {
 public:
  explicit ProgressStore(std::filesystem::path file);  // a missing or unreadable file starts empty

  PuzzleProgress get(int puzzle_id) const;
  void record_check(const PuzzleReport& puzzle, const std::string& date);
  void record_hint(int puzzle_id, int level);
  void save() const;  // atomically

 private:
  nlohmann::json& entry(int puzzle_id);  // created empty on first use

  std::filesystem::path file_;
  nlohmann::json data_;
};

std::filesystem::path progress_file(const std::filesystem::path& source_dir);

}  // namespace puzzle::cli
