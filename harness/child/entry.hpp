// The bridge from the runner to a puzzle's launcher: one entry per puzzle (entries/pNN_slug.cpp),
// plain C++ without CUDA headers, so that one library serves both the GPU and the simulator child.
#pragma once
#include <vector>

#include "registry.hpp"

struct LaunchArgs {
  std::vector<const float*> in;  // device pointers, in the order of PuzzleSpec::inputs
  std::vector<float*> out;       // device pointers, in the order of PuzzleSpec::outputs
  puzzle::Params params;
};

// Calls the learner's launcher with the arguments of its signature.
void puzzle_call_launcher(const LaunchArgs& args);
