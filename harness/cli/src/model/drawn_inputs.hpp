// The inputs the parent draws for a check's cases, on their way from the drawer, which also writes them
// for the child (run/input_drawing.hpp), to the judge, which computes each case's reference from them
// (judge/concurrent_judge.hpp). Their threads meet here: the drawer waits while the inputs drawn and not
// yet judged reach kAheadBytes, the judge waits for a case's inputs.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "registry.hpp"

namespace puzzle::cli {

// How far the inputs and, separately, the expectations (inputs and references) may run ahead of the
// judging: puzzle 1's three large cases (1.7 GB of inputs and references), so that the inputs are ready
// when the child gets to them and the references are computed while the child is built.
inline constexpr int64_t kAheadBytes = int64_t{2} << 30;

class DrawnInputs {
 public:
  explicit DrawnInputs(const PuzzleSpec& puzzle) : puzzle_(puzzle) {}

  // The drawer's side, a case at a time in the child's order.
  enum class Turn { draw, skip, stop };
  // Waits until the inputs held leave room to draw further ahead; then whether to draw the case, skip it
  // (it ended without outputs: nothing will read its inputs) or draw nothing more.
  Turn wait_for_turn(int case_index);
  void put(int case_index, Buffers inputs);  // drawn, and written for the child
  void fail(std::exception_ptr error);       // the drawing failed: take() rethrows it

  // The judge's side.
  void not_needed(int case_index);  // the case ended without outputs
  // The case's inputs once drawn, taken out; none for a case that ended without outputs. Throws if the
  // drawing failed or stopped first.
  std::optional<Buffers> take(int case_index);
  void release(int case_index);  // judged: its inputs no longer count against kAheadBytes
  void stop();                   // draw no further, and stop waiting in take()

 private:
  // Changes what the threads share under mutex_, then wakes every thread waiting on it.
  template <class Change>
  void publish(Change change) {
    {
      std::lock_guard lock(mutex_);
      change();
    }
    changed_.notify_all();
  }
  int64_t held_bytes() const;  // under mutex_

  const PuzzleSpec& puzzle_;  // for the names of its cases in messages
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopped_ = false;
  std::set<int> not_needed_;
  std::map<int, Buffers> drawn_;       // not yet taken by the judge
  std::map<int, int64_t> held_bytes_;  // of the inputs drawn and not yet judged, per case
  std::exception_ptr error_;
};

}  // namespace puzzle::cli
