// `puzzle check`'s inputs, drawn by the parent for the child: every case's, from the start, while the child
// is still being built, written into the work dir (protocol.hpp, Job::inputs_from_parent: drawn once, not
// once per process) and handed on to the judge (DrawnInputs), at most kAheadBytes ahead of the judging.
// PUZZLE_TIMING=1 prints how long each case's drawing took.
#pragma once
#include <cstdint>
#include <filesystem>
#include <thread>
#include <vector>

#include "model/drawn_inputs.hpp"
#include "registry.hpp"

namespace puzzle::cli {

// Draws on a thread of its own, a case at a time in the order of `cases` (the child's).
class InputDrawer {
 public:
  InputDrawer(const PuzzleSpec& puzzle, uint64_t seed, std::vector<int> cases, std::filesystem::path work_dir,
              DrawnInputs& drawn);
  InputDrawer(const InputDrawer&) = delete;
  InputDrawer& operator=(const InputDrawer&) = delete;
  ~InputDrawer();  // finish()

  // Draws nothing more, and waits for the case being drawn.
  void finish();

 private:
  DrawnInputs& drawn_;
  std::thread drawer_;
};

}  // namespace puzzle::cli
