// A puzzle's own harness libraries (its child entry and its launcher glue), built the first time a check
// of that puzzle needs them, so that a fresh clone's first `puzzle check 1` does not compile the other
// puzzles' parts first. `./puzzle` rebuilds the parts already built whenever it rebuilds the tool, and
// `cmake --build` (all) builds every puzzle's.
#pragma once
#include "model/build_config.hpp"

namespace puzzle::cli {

// Builds puzzle `puzzle_id`'s entry and glue libraries if either is missing (`cmake --build`, one
// process at a time per build folder: checks and graders may run in parallel). EnvironmentError with
// the build's last lines if it fails.
void build_missing_puzzle_parts(const BuildConfig& config, int puzzle_id);

}  // namespace puzzle::cli
