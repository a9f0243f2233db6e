// `puzzle reset N`: the puzzle file as the repository added it (git), put back over the learner's version,
// which is kept in .puzzle/backups/ first; `--undo` puts the newest backup back.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "registry.hpp"

namespace puzzle::cli {

// puzzles/NN_slug/<file> from the git checkout in `source_dir`: as its upstream branch has it (the course's
// newest stub), else as the commit that added it, else as HEAD; nullopt without git or commit.
std::optional<std::string> committed_stub(const std::filesystem::path& source_dir, const PuzzleSpec& puzzle);

struct ResetResult {
  bool changed = false;          // false: the file already was the stub
  std::filesystem::path backup;  // where the learner's version went, when changed
};

// EnvironmentError when the stub cannot be found; `now` names the backup ("20250102-030405").
ResetResult reset_puzzle_file(const std::filesystem::path& source_dir, const PuzzleSpec& puzzle,
                              const std::string& now);

struct UndoResult {
  std::filesystem::path restored;  // the backup put back (and removed from the backups)
  std::filesystem::path kept;      // where the file it replaced went, when that was neither stub nor backup
};

// `puzzle reset N --undo`: the newest backup of the puzzle's file put back, so that a reset loses nothing.
// The file it replaces is kept as a new backup unless it is the stub (or the backup itself). UsageError
// when there is no backup.
UndoResult undo_reset(const std::filesystem::path& source_dir, const PuzzleSpec& puzzle,
                      const std::string& now);

}  // namespace puzzle::cli
