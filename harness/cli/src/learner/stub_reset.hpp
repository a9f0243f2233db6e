// `puzzle reset N`: the puzzle file as the repository added it (git), put back over the learner's version,
// which is kept in .puzzle/backups/ first.
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

}  // namespace puzzle::cli
