#include "commands/commands.hpp"
#include "learner/stub_reset.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "report/text_format.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {

int reset_command(const ResetOptions& options, const BuildConfig& config, std::ostream& out) {
  const PuzzleSpec& puzzle = lookup_puzzle(options.puzzle);
  const ResetResult result =
      reset_puzzle_file(config.source_dir, puzzle, time_now("%Y%m%d-%H%M%S", TimeZone::local));
  if (!result.changed) {
    out << stub_path(puzzle) << " is already the stub as committed; nothing to do.\n";
    return kExitPassed;
  }
  out << stub_path(puzzle) << " is the stub again.\n";
  if (!result.backup.empty()) {
    out << "Your version is saved as " << result.backup.lexically_relative(config.source_dir).string()
        << "\n";
  }
  return kExitPassed;
}

}  // namespace puzzle::cli
