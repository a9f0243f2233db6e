// Judges the cases of one child run as the child finishes them.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "model/check_report.hpp"
#include "model/child_run.hpp"
#include "model/drawn_inputs.hpp"

namespace puzzle::cli {

// Judges the cases of one child run on a thread of its own. Another thread works ahead of it from the
// start, while the child is still being built: it computes each case's expectation (inputs and float64
// reference) from the inputs the parent drew (`inputs`), in the child's order, as far ahead as a memory
// budget allows: the large GPU cases' references take as long as the build, or longer (puzzle 6's), and
// would otherwise be waited for. Every element is still compared.
// PUZZLE_TIMING=1 prints, per case, where the parent's time went.
class ConcurrentJudge {
 public:
  ConcurrentJudge(const PuzzleSpec& puzzle, uint64_t seed, std::vector<int> cases,
                  std::filesystem::path work_dir, DrawnInputs& inputs);
  ConcurrentJudge(const ConcurrentJudge&) = delete;
  ConcurrentJudge& operator=(const ConcurrentJudge&) = delete;
  ~ConcurrentJudge();

  void case_done(int case_index, const CaseRun& run);  // as run_child reports it
  // After run_child: every case's outcome; waits for the judgements and returns them by case index.
  std::map<int, CaseReport> finish(const ChildRuns& runs);

 private:
  void expect_all();
  void judge_all();
  // Changes what the threads share under mutex_, then wakes every thread waiting on it.
  template <class Change>
  void publish(Change change) {
    {
      std::lock_guard lock(mutex_);
      change();
    }
    changed_.notify_all();
  }
  void release(int case_index);  // once judged: the inputs and expect_all may work further ahead
  void stop();                   // nothing more is judged, expected or drawn

  const PuzzleSpec& puzzle_;
  const uint64_t seed_;
  const std::vector<int> cases_;  // in the child's order
  const std::filesystem::path work_dir_;
  DrawnInputs& inputs_;
  const bool print_timing_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<int, CaseRun> runs_;  // known so far
  bool child_ended_ = false;
  bool stopping_ = false;  // destroyed early, or every case judged: expect no further
  // expect_all's expectations, none for a case that ended without outputs, until judged; their sizes
  std::map<int, std::optional<CaseExpectation>> expected_;
  std::map<int, int64_t> expected_bytes_;
  std::exception_ptr expect_error_;
  std::map<int, CaseReport> reports_;
  std::exception_ptr error_;
  std::thread expecter_, judge_;  // last: start once everything above is ready
};

}  // namespace puzzle::cli
