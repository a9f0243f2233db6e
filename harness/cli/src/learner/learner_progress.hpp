// Where a learner stands, from .puzzle/progress.json: for `puzzle list` and `puzzle next`.
#pragma once
#include <string>

#include "learner/progress_store.hpp"
#include "registry.hpp"

namespace puzzle::cli {

// The best result so far: "passed" (some check passed, whatever came after), "failed" (checks that did not
// pass) or "not tried".
std::string standing(const PuzzleProgress& progress);

// The first puzzle, in registry order, that never passed, leaving out those never tried before the last
// one passed (skipped on purpose); nullptr when none is left.
const PuzzleSpec* next_puzzle(const ProgressStore& progress);

int passed_puzzles(const ProgressStore& progress);

inline constexpr int kProgressBarWidth = 24;

// "[######------] 2/6 passed", `width` marks wide.
std::string progress_bar(int passed, int total, int width);

}  // namespace puzzle::cli
