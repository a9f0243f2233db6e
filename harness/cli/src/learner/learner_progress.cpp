#include "learner/learner_progress.hpp"

#include <algorithm>

namespace puzzle::cli {

std::string standing(const PuzzleProgress& progress) {
  if (!progress.passed_date.empty()) return "passed";
  return progress.status.empty() ? "not tried" : "failed";
}

const PuzzleSpec* next_puzzle(const ProgressStore& progress) {
  // A puzzle never tried that comes before one already passed was skipped on purpose (the warm-up, by a
  // learner who started at puzzle 1): it is not sent back there.
  const auto& puzzles = all_puzzles();
  const auto last_passed = std::find_if(puzzles.rbegin(), puzzles.rend(), [&](const PuzzleSpec& p) {
    return standing(progress.get(p.id)) == "passed";
  });
  const auto skipped_before = last_passed == puzzles.rend() ? puzzles.begin() : last_passed.base();
  for (auto it = puzzles.begin(); it != puzzles.end(); ++it) {
    const std::string now = standing(progress.get(it->id));
    if (now == "passed" || (now == "not tried" && it < skipped_before)) continue;
    return &*it;
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
