#include "case_data.hpp"

namespace puzzle {

Buffers draw_inputs(const PuzzleSpec& puzzle, const TestCase& test, uint64_t seed) {
  Buffers inputs;
  for (const BufferSpec& spec : puzzle.inputs) inputs.emplace_back(spec.elements(test.params));
  puzzle.make_inputs(test, seed, inputs);
  // A 16-bit input holds what the device will read, whatever the family drew.
  for (size_t k = 0; k < inputs.size(); ++k) round_all(puzzle.inputs[k].dtype, inputs[k]);
  return inputs;
}

}  // namespace puzzle
