#include "case_data.hpp"

namespace puzzle {

Buffers draw_inputs(const PuzzleSpec& puzzle, const TestCase& test, uint64_t seed) {
  Buffers inputs;
  for (const BufferSpec& spec : puzzle.inputs) inputs.emplace_back(spec.elements(test.params));
  puzzle.make_inputs(test, seed, inputs);
  return inputs;
}

RefBuffers expected_outputs(const PuzzleSpec& puzzle, const TestCase& test, const Buffers& inputs) {
  RefBuffers outputs;
  for (const BufferSpec& spec : puzzle.outputs) outputs.emplace_back(spec.elements(test.params));
  puzzle.reference(test.params, inputs, outputs);
  return outputs;
}

}  // namespace puzzle
