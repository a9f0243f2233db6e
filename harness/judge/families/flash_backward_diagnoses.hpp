// Puzzle 6's own explanations of a failed case, after the generic ones.
#pragma once
#include <vector>

#include "registry.hpp"
#include "verdict.hpp"

namespace puzzle::puzzles {

void flash_backward_diagnoses(const CaseEvidence& e, std::vector<Diagnosis>& out);

}  // namespace puzzle::puzzles
