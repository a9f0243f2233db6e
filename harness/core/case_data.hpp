// A case's inputs, sized from the puzzle's buffer specs. The child and the parent both call draw_inputs,
// so they see the same data (the expected outputs are the judge's: harness/judge/judges.hpp).
#pragma once
#include <cstdint>

#include "registry.hpp"

namespace puzzle {

Buffers draw_inputs(const PuzzleSpec& puzzle, const TestCase& test, uint64_t seed);

}  // namespace puzzle
