// A case's inputs and expected outputs, sized from the puzzle's buffer specs. The child and the parent
// both call draw_inputs, so they see the same data.
#pragma once
#include <cstdint>

#include "registry.hpp"

namespace puzzle {

Buffers draw_inputs(const PuzzleSpec& puzzle, const TestCase& test, uint64_t seed);
RefBuffers expected_outputs(const PuzzleSpec& puzzle, const TestCase& test, const Buffers& inputs);

}  // namespace puzzle
