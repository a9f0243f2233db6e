// The judge "map_sum" of the warm-up (puzzle 0): the float64 reference of y = exp(x) and of the chunk
// sums, and the diagnoses of the warm-up's usual mistakes (a grid that rounds n down, sums over x or over
// part of each chunk).
#pragma once
#include <string>
#include <vector>

#include "judges.hpp"

namespace puzzle::puzzles::map_sum {

Judge judge(const std::vector<std::string>& extra_diagnoses);

}  // namespace puzzle::puzzles::map_sum
