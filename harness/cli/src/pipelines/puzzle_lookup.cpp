#include "pipelines/puzzle_lookup.hpp"

#include <algorithm>

#include "support/errors.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {

const PuzzleSpec& lookup_puzzle(const std::string& id_or_slug) {
  if (const PuzzleSpec* spec = find_puzzle(id_or_slug)) return *spec;
  std::string known;
  for (const auto& p : all_puzzles()) known += "\n  " + std::to_string(p.id) + "  " + p.slug;
  throw UsageError("no puzzle \"" + id_or_slug + "\"; the puzzles are:" + known);
}

PuzzleSource load_source(const PuzzleSpec& puzzle, SourceKind kind, const std::filesystem::path& source_dir,
                         const std::filesystem::path& explicit_file) {
  PuzzleSource source{.kind = kind};
  switch (kind) {
    case SourceKind::learner:
      source.file = source_dir / stub_path(puzzle);
      break;
    case SourceKind::solution: {
      const auto ladder = solution_ladder(puzzle, source_dir);
      if (ladder.empty() && explicit_file.empty())
        throw UsageError("puzzle " + std::to_string(puzzle.id) + " has no solution in " +
                         solutions_folder(puzzle) + "/");
      source.file = explicit_file.empty() ? ladder.front() : std::filesystem::absolute(explicit_file);
      break;
    }
    case SourceKind::baseline:
      source.file = source_dir / "baselines" / puzzle.file;
      break;
    case SourceKind::file:
      source.file = std::filesystem::absolute(explicit_file);
      break;
  }
  if (std::filesystem::is_directory(source.file)) throw UsageError(source.file.string() + " is a directory");
  auto text = read_text(source.file);
  if (!text) throw UsageError("cannot read " + source.file.string());
  source.text = std::move(*text);
  return source;
}

}  // namespace puzzle::cli
