#include <algorithm>

#include "commands/commands.hpp"
#include "learner/progress_store.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {

int hint_command(const HintOptions& options, const BuildConfig& config, Style style, std::ostream& out) {
  const PuzzleSpec& puzzle = lookup_puzzle(options.puzzle);
  ProgressStore progress(progress_file(config.source_dir));
  const int max_level = static_cast<int>(puzzle.hints.size());
  const int level = options.level.value_or(std::min(progress.get(puzzle.id).hint_level + 1, max_level));
  out << style("Hint " + std::to_string(level) + " of " + std::to_string(max_level) + " for puzzle " +
                   std::to_string(puzzle.id) + " (" + puzzle.title + "):",
               Tone::bold)
      << "\n"
      << puzzle.hints.at(level - 1) << "\n";
  if (level < max_level) {
    out << "\n(`puzzle hint " << puzzle.id << "` again for the next one)\n";
  } else {
    out << "\nThat was the last hint; " << puzzle.docs << " explains the ideas behind the puzzle.\n";
  }
  progress.record_hint(puzzle.id, level);
  progress.save();
  return kExitPassed;
}

}  // namespace puzzle::cli
