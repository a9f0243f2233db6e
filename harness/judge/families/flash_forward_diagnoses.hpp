// Puzzle 5's own explanations of a failed case, after the generic ones.
#pragma once
#include <vector>

#include "registry.hpp"
#include "verdict.hpp"

namespace puzzle::puzzles {

void flash_forward_diagnoses(const CaseEvidence& e, std::vector<Diagnosis>& out);

}  // namespace puzzle::puzzles
