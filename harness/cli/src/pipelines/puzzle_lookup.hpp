// Which puzzle and which file a command is about.
#pragma once
#include <filesystem>
#include <string>

#include "model/puzzle_source.hpp"
#include "registry.hpp"

namespace puzzle::cli {

// The puzzle named by "1", "01" or "row_softmax"; UsageError listing the puzzles otherwise.
const PuzzleSpec& lookup_puzzle(const std::string& id_or_slug);

// puzzles/NN_slug/<file>, the clear solution (solutions/NN_slug/1_clear.cu) or `explicit_file`, read now; a
// solution with an `explicit_file` is that version of the ladder. UsageError if it cannot be read.
PuzzleSource load_source(const PuzzleSpec& puzzle, SourceKind kind, const std::filesystem::path& source_dir,
                         const std::filesystem::path& explicit_file = {});

}  // namespace puzzle::cli
