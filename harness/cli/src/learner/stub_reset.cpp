#include "learner/stub_reset.hpp"

#include <sstream>
#include <vector>

#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"

namespace puzzle::cli {

namespace fs = std::filesystem;

namespace {

// git's stdout when it succeeds. Its stderr is dropped: it must never end up in a puzzle file.
std::optional<std::string> git_output(const fs::path& source_dir, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", source_dir.string()});
  try {
    const CapturedRun run = run_captured(args, std::nullopt, StderrMode::discarded);
    if (!run.status.ok()) return std::nullopt;
    return run.output;
  } catch (const std::exception&) {
    return std::nullopt;  // no git
  }
}

}  // namespace

std::optional<std::string> committed_stub(const fs::path& source_dir, const PuzzleSpec& puzzle) {
  const std::string path = stub_path(puzzle);
  // HEAD may hold the learner's own work, committed. The branch the checkout was cloned from (its
  // upstream) has the course's newest stub; without one, the commit that added the file has the first.
  if (auto stub = git_output(source_dir, {"show", "@{upstream}:" + path})) return stub;
  std::istringstream adding(
      git_output(source_dir, {"log", "--no-renames", "--diff-filter=A", "--format=%H", "HEAD", "--", path})
          .value_or(""));
  std::string first_commit;  // the log lists the newest first (rev-list has no --diff-filter)
  for (std::string line; std::getline(adding, line);) {
    if (!line.empty()) first_commit = line;
  }
  if (!first_commit.empty()) {
    if (auto stub = git_output(source_dir, {"show", first_commit + ":" + path})) return stub;
  }
  return git_output(source_dir, {"show", "HEAD:" + path});
}

fs::path backups_folder(const fs::path& source_dir) {
  return source_dir / ".puzzle" / "backups";
}

ResetResult reset_puzzle_file(const fs::path& source_dir, const PuzzleSpec& puzzle, const std::string& now) {
  const auto stub = committed_stub(source_dir, puzzle);
  if (!stub) {
    throw EnvironmentError(
        "cannot find the original " + stub_path(puzzle) +
        ": `reset` takes it from git, and this is not a git checkout with that file committed");
  }
  const fs::path file = source_dir / stub_path(puzzle);
  const auto current = read_text(file);
  if (current && *current == *stub) return {};
  ResetResult result{.changed = true};
  if (current) {
    result.backup = backups_folder(source_dir) / (puzzle.file + "." + now);
    write_atomically(result.backup, *current);
  }
  write_atomically(file, *stub);
  return result;
}

UndoResult undo_reset(const fs::path& source_dir, const PuzzleSpec& puzzle, const std::string& now) {
  // Backups are named FILE.YYYYMMDD-HHMMSS: the newest is the last by name.
  std::optional<fs::path> newest;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(backups_folder(source_dir), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(puzzle.file + ".") && (!newest || entry.path() > *newest)) newest = entry.path();
  }
  if (!newest) {
    throw UsageError("no backup of " + stub_path(puzzle) + " to put back: `puzzle reset " +
                     std::to_string(puzzle.id) + "` keeps your file in .puzzle/backups/ when it replaces it");
  }
  const auto backup = read_text(*newest);
  if (!backup) throw EnvironmentError("cannot read " + newest->string());
  const fs::path file = source_dir / stub_path(puzzle);
  UndoResult result{.restored = *newest};
  const auto current = read_text(file);
  if (current && *current != *backup && *current != committed_stub(source_dir, puzzle).value_or("")) {
    result.kept = backups_folder(source_dir) / (puzzle.file + "." + now);
    if (result.kept == *newest) result.kept += "-1";  // undone within the second of the reset
    write_atomically(result.kept, *current);
  }
  write_atomically(file, *backup);
  fs::remove(*newest, ec);
  return result;
}

}  // namespace puzzle::cli
