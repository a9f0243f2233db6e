// The input kinds of the softmax puzzles: random, huge_logits, constant_rows, neg_inf, neg_inf_tiles.
#pragma once
#include <cstdint>

#include "registry.hpp"

namespace puzzle::puzzles::softmax {

void make_inputs(int puzzle_id, const TestCase& test, uint64_t seed, Buffers& inputs);

}  // namespace puzzle::puzzles::softmax
