#include "commands/commands.hpp"
#include "learner/learner_progress.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {

int next_command(const BuildConfig& config, Style style, std::ostream& out) {
  const ProgressStore progress(progress_file(config.source_dir));
  const PuzzleSpec* next = next_puzzle(progress);
  const int total = static_cast<int>(all_puzzles().size());
  if (!next) {
    out << style("All " + std::to_string(total) + " puzzles passed.", Tone::good)
        << " `puzzle bench N` compares your kernels with the reference solutions on a GPU.\n";
    return kExitPassed;
  }
  const PuzzleProgress mine = progress.get(next->id);
  out << style("Next: puzzle " + std::to_string(next->id) + ", " + next->title, Tone::bold) << "\n"
      << "  " << next->summary << "\n"
      << "  file:  " << stub_path(*next) << "\n"
      << "  guide: " << next->docs << "\n"
      << "  check: ./puzzle check " << next->id << "   (or ./puzzle watch " << next->id
      << " to check on every save)\n";
  if (standing(mine) == "failed") {
    out << "  your last check " << mine.date.substr(0, 10) << ": " << mine.status;
    out << (mine.hint_level < static_cast<int>(next->hints.size())
                ? "; `puzzle hint " + std::to_string(next->id) + "` helps"
                : "")
        << "\n";
  }
  out << progress_bar(passed_puzzles(progress), total, kProgressBarWidth) << "\n";
  return kExitPassed;
}

}  // namespace puzzle::cli
