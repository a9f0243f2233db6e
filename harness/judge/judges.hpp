// The parent's side of a puzzle: its float64 reference and its diagnoses, found from PuzzleSpec::judge
// (the family's judge) and PuzzleSpec::diagnoses (the extras it names). This library is linked into the
// parent only: a child draws inputs and runs the learner's launcher, it never judges
// (tests/cli/test_child_isolation.cpp keeps it so).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "registry.hpp"
#include "verdict.hpp"

namespace puzzle {

struct Judge {
  std::function<void(const Params&, const Buffers& inputs, RefBuffers& outputs)> reference;
  // The family's diagnoses of a failed case and the puzzle's extras, added after the generic ones.
  std::function<void(const CaseEvidence&, std::vector<Diagnosis>&)> diagnose;
  // Optional: an error each output element may have on top of PuzzleSpec::tolerance, where the rounding
  // a right kernel may do depends on the element (a dot product's error grows with sum |a_i b_i|, not
  // with its result). Filled like `reference`, one buffer per output.
  std::function<void(const Params&, const Buffers& inputs, RefBuffers& allowance)> allowance;
};

// std::logic_error when the puzzle names a judge or an extra diagnosis that does not exist.
const Judge& judge_of(const PuzzleSpec& puzzle);

// The reference's outputs of a case, sized from the puzzle's output buffers.
RefBuffers expected_outputs(const PuzzleSpec& puzzle, const TestCase& test, const Buffers& inputs);
// The judge's per-element allowances of a case; empty when the judge has none.
RefBuffers error_allowance(const PuzzleSpec& puzzle, const TestCase& test, const Buffers& inputs);

}  // namespace puzzle
