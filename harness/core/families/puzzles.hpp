// One function per puzzle, each in its own file; registry.cpp lists them in order.
#pragma once
#include "registry.hpp"

namespace puzzle::puzzles {

PuzzleSpec row_softmax();
PuzzleSpec tiled_softmax();
PuzzleSpec online_softmax();
PuzzleSpec blocked_softmax();
PuzzleSpec flash_forward();
PuzzleSpec flash_backward();

}  // namespace puzzle::puzzles
