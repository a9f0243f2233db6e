#include "commands/commands.hpp"
#include "learner/stub_reset.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "report/text_format.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {

int reset_command(const ResetOptions& options, const BuildConfig& config, std::ostream& out) {
  const PuzzleSpec& puzzle = lookup_puzzle(options.puzzle);
  const std::string now = time_now("%Y%m%d-%H%M%S", TimeZone::local);
  if (options.undo) {
    const UndoResult undone = undo_reset(config.source_dir, puzzle, now);
    out << stub_path(puzzle) << " is your version again (from "
        << undone.restored.lexically_relative(config.source_dir).string() << ").\n";
    if (!undone.kept.empty())
      out << "The file it replaced is saved as " << undone.kept.lexically_relative(config.source_dir).string()
          << "\n";
    return kExitPassed;
  }
  const ResetResult result = reset_puzzle_file(config.source_dir, puzzle, now);
  if (!result.changed) {
    out << stub_path(puzzle) << " is already the stub as committed; nothing to do.\n";
    return kExitPassed;
  }
  out << stub_path(puzzle) << " is the stub again.\n";
  if (!result.backup.empty()) {
    out << "Your version is saved as " << result.backup.lexically_relative(config.source_dir).string()
        << " (`puzzle reset " << puzzle.id << " --undo` puts it back)\n";
  }
  return kExitPassed;
}

}  // namespace puzzle::cli
