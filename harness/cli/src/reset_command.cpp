#include <ctime>

#include "commands.hpp"
#include "errors.hpp"
#include "puzzle_source.hpp"
#include "stub_reset.hpp"

namespace puzzle::cli {
namespace {

std::string local_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &local);
  return text;
}

}  // namespace

int reset_command(const ResetOptions& options, const BuildConfig& config, std::ostream& out) {
  const PuzzleSpec& puzzle = lookup_puzzle(options.puzzle);
  const ResetResult result = reset_puzzle_file(config.source_dir, puzzle, local_timestamp());
  if (!result.changed) {
    out << "puzzles/" << puzzle.file << " is already the stub as committed; nothing to do.\n";
    return kExitPassed;
  }
  out << "puzzles/" << puzzle.file << " is the stub again.\n";
  if (!result.backup.empty()) {
    out << "Your version is saved as " << result.backup.lexically_relative(config.source_dir).string()
        << "\n";
  }
  return kExitPassed;
}

}  // namespace puzzle::cli
