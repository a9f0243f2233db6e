// The judge "matmul" of the tensor-core product puzzles (7, 8): the float64 reference of C = A B^T, the
// error a right kernel may make (it grows with k), and the diagnoses of a wrong C.
#pragma once
#include <string>
#include <vector>

#include "judges.hpp"

namespace puzzle::puzzles::matmul {

Judge judge(const std::vector<std::string>& extra_diagnoses);

}  // namespace puzzle::puzzles::matmul
