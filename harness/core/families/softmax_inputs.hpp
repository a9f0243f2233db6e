// The input kinds of the softmax puzzles (random, huge_logits, constant_rows, neg_inf, neg_inf_tiles)
// and their double-precision reference.
#pragma once
#include <cstdint>

#include "registry.hpp"

namespace puzzle::puzzles::softmax {

void make_inputs(int puzzle_id, const TestCase& test, uint64_t seed, Buffers& inputs);
void reference(const Params& p, const Buffers& inputs, RefBuffers& outputs);

}  // namespace puzzle::puzzles::softmax
