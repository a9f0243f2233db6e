#include "learner/learner_progress.hpp"

#include <algorithm>

namespace puzzle::cli {

std::string standing(const PuzzleProgress& progress) {
  if (!progress.passed_date.empty()) return "passed";
  return progress.status.empty() ? "not tried" : "failed";
}

const PuzzleSpec* next_puzzle(const ProgressStore& progress) {
  for (const auto& p : all_puzzles()) {
    if (standing(progress.get(p.id)) != "passed") return &p;
  }
  return nullptr;
}

int passed_puzzles(const ProgressStore& progress) {
  return static_cast<int>(std::count_if(all_puzzles().begin(), all_puzzles().end(), [&](const PuzzleSpec& p) {
    return standing(progress.get(p.id)) == "passed";
  }));
}

std::string progress_bar(int passed, int total, int width) {
  const int filled = total > 0 ? passed * width / total : 0;
  return "[" + std::string(filled, '#') + std::string(width - filled, '-') + "] " + std::to_string(passed) +
         "/" + std::to_string(total) + " passed";
}

}  // namespace puzzle::cli
