#include "stub_reset.hpp"

#include "errors.hpp"
#include "file_io.hpp"
#include "subprocess.hpp"

namespace puzzle::cli {

namespace fs = std::filesystem;

std::optional<std::string> committed_stub(const fs::path& source_dir, const PuzzleSpec& puzzle) {
  try {
    // stderr comes back mixed with stdout: a failure is told by the exit status alone.
    const CapturedRun run =
        run_captured({"git", "-C", source_dir.string(), "show", "HEAD:puzzles/" + puzzle.file});
    if (!run.status.ok()) return std::nullopt;
    return run.output;
  } catch (const std::exception&) {
    return std::nullopt;  // no git
  }
}

ResetResult reset_puzzle_file(const fs::path& source_dir, const PuzzleSpec& puzzle, const std::string& now) {
  const auto stub = committed_stub(source_dir, puzzle);
  if (!stub) {
    throw EnvironmentError(
        "cannot find the original puzzles/" + puzzle.file +
        ": `reset` takes it from git, and this is not a git checkout with that file committed");
  }
  const fs::path file = source_dir / "puzzles" / puzzle.file;
  const auto current = read_text(file);
  if (current && *current == *stub) return {};
  ResetResult result{.changed = true};
  if (current) {
    result.backup = source_dir / ".puzzle" / "backups" / (puzzle.file + "." + now);
    write_atomically(result.backup, *current);
  }
  write_atomically(file, *stub);
  return result;
}

}  // namespace puzzle::cli
