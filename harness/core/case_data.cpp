#include "case_data.hpp"

namespace puzzle {

Buffers draw_inputs(const PuzzleSpec& puzzle, const TestCase& test, uint64_t seed) {
  Buffers inputs;
  for (const BufferSpec& spec : puzzle.inputs) inputs.emplace_back(spec.elements(test.params));
  puzzle.make_inputs(test, seed, inputs);
  return inputs;
}

}  // namespace puzzle
