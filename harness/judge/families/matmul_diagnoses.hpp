// The diagnoses of a wrong C = A B^T (puzzles 7, 8). Each tests one hypothesis on the wrong elements: the
// output is right for another problem (b read as [k, n], c written transposed, k cut short, a's or b's
// fragment registers in another order), or the
// wrong elements sit at the same places of every 16 x 8 mma tile (a fragment index), or the errors are the
// size of 16-bit rounding (an accumulator or c in bf16).
#pragma once
#include <vector>

#include "verdict.hpp"

namespace puzzle::puzzles::matmul {

void diagnose(const CaseEvidence& e, std::vector<Diagnosis>& out);

}  // namespace puzzle::puzzles::matmul
