#include "run/input_drawing.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "case_data.hpp"
#include "protocol.hpp"
#include "support/thread_priority.hpp"

namespace puzzle::cli {
namespace {

void draw_all(const PuzzleSpec& puzzle, uint64_t seed, const std::vector<int>& cases,
              const std::filesystem::path& work_dir, DrawnInputs& drawn, bool print_timing) {
  work_behind_the_compiler();
  try {
    for (const int index : cases) {
      const DrawnInputs::Turn turn = drawn.wait_for_turn(index);
      if (turn == DrawnInputs::Turn::stop) return;
      if (turn == DrawnInputs::Turn::skip) continue;
      const auto drawing_from = std::chrono::steady_clock::now();
      Buffers inputs = draw_inputs(puzzle, puzzle.cases.at(index), seed);
      if (print_timing) {
        std::fprintf(stderr, "[timing] case %s: inputs drawn in %.2f s\n",
                     puzzle.cases.at(index).name.c_str(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - drawing_from).count());
      }
      for (size_t k = 0; k < inputs.size(); ++k) {
        protocol::write_floats(protocol::input_path(work_dir, index, static_cast<int>(k)), inputs[k].data(),
                               static_cast<int64_t>(inputs[k].size()));
      }
      protocol::write_floats(protocol::inputs_ready_path(work_dir, index), nullptr, 0);
      drawn.put(index, std::move(inputs));
    }
  } catch (...) {
    drawn.fail(std::current_exception());
    // The child waits for files that will not come: tell it to stop (if even this fails, the child is
    // stopped by the parent's limit on input drawing, child_runner.cpp).
    try {
      protocol::write_floats(protocol::inputs_failed_path(work_dir), nullptr, 0);
    } catch (...) {
    }
  }
}

}  // namespace

InputDrawer::InputDrawer(const PuzzleSpec& puzzle, uint64_t seed, std::vector<int> cases,
                         std::filesystem::path work_dir, DrawnInputs& drawn)
    : drawn_(drawn),
      drawer_([&puzzle, seed, cases = std::move(cases), work_dir = std::move(work_dir), &drawn,
               print_timing = std::getenv("PUZZLE_TIMING") != nullptr] {
        draw_all(puzzle, seed, cases, work_dir, drawn, print_timing);
      }) {}

InputDrawer::~InputDrawer() {
  finish();
}

void InputDrawer::finish() {
  drawn_.stop();  // the case being drawn is finished first
  if (drawer_.joinable()) drawer_.join();
}

}  // namespace puzzle::cli
