// The parent's side of a puzzle: its float64 reference and its diagnoses, found from PuzzleSpec::judge
// (the family's judge) and PuzzleSpec::diagnoses (the extras it names). This library is linked into the
// parent only: a child draws inputs and runs the learner's launcher, it never judges
// (tests/cli/child_isolation_tests.cpp keeps it so).
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
};

// std::logic_error when the puzzle names a judge or an extra diagnosis that does not exist.
const Judge& judge_of(const PuzzleSpec& puzzle);

// The reference's outputs of a case, sized from the puzzle's output buffers.
RefBuffers expected_outputs(const PuzzleSpec& puzzle, const TestCase& test, const Buffers& inputs);

}  // namespace puzzle
