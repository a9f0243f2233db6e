// What the child did with a case -> a judged case.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "check_report.hpp"
#include "child_runner.hpp"

namespace puzzle::cli {

// Reads the case's outputs from `work_dir` and judges them against the reference (done cases), or reports
// the crash / timeout. With `expectation`, its inputs and reference are not computed again.
CaseReport judge_run(const PuzzleSpec& puzzle, int case_index, uint64_t seed, const CaseRun& run,
                     const std::filesystem::path& work_dir, const CaseExpectation* expectation = nullptr);

// Judges the cases of one child run on a thread of its own. Two more threads work ahead of it from the
// start, while the child is still being built: one draws every case's inputs and writes them for the
// child into `work_dir` (protocol.hpp, Job::inputs_from_parent: drawn once, not once per process); the
// other computes each case's expectation (inputs and float64 reference), in the child's order, as far ahead
// as a memory budget allows: the large GPU cases' references take as long as the build, or longer (puzzle
// 6's), and would otherwise be waited for. Every element is still compared.
// PUZZLE_TIMING=1 prints, per case, where the parent's time went.
class ConcurrentJudge {
 public:
  ConcurrentJudge(const PuzzleSpec& puzzle, uint64_t seed, std::vector<int> cases,
                  std::filesystem::path work_dir);
  ConcurrentJudge(const ConcurrentJudge&) = delete;
  ConcurrentJudge& operator=(const ConcurrentJudge&) = delete;
  ~ConcurrentJudge();

  void case_done(int case_index, const CaseRun& run);  // as run_child reports it
  // After run_child: every case's outcome; waits for the judgements and returns them by case index.
  std::map<int, CaseReport> finish(const ChildRuns& runs);

 private:
  void draw_all();
  void expect_all();
  void judge_all();
  // draw_all's inputs for the case, once drawn; none for a case that ended without outputs. Throws if
  // the drawing failed or stopped.
  std::optional<Buffers> drawn_inputs(int case_index);
  bool ended_without_outputs(int case_index) const;  // under mutex_
  // Changes what the threads share under mutex_, then wakes every thread waiting on it.
  template <class Change>
  void publish(Change change) {
    {
      std::lock_guard lock(mutex_);
      change();
    }
    changed_.notify_all();
  }
  void release(int case_index);  // once judged: draw_all and expect_all may work further ahead

  const PuzzleSpec& puzzle_;
  const uint64_t seed_;
  const std::vector<int> cases_;  // in the child's order
  const std::filesystem::path work_dir_;
  const bool print_timing_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<int, CaseRun> runs_;  // known so far
  bool child_ended_ = false;
  bool stopping_ = false;              // destroyed early: draw no further
  std::map<int, Buffers> drawn_;       // inputs drawn, not yet taken by the judge
  std::map<int, int64_t> held_bytes_;  // of the inputs drawn and not yet judged, per case
  std::exception_ptr draw_error_;
  // expect_all's expectations, none for a case that ended without outputs, until judged; their sizes
  std::map<int, std::optional<CaseExpectation>> expected_;
  std::map<int, int64_t> expected_bytes_;
  std::exception_ptr expect_error_;
  std::map<int, CaseReport> reports_;
  std::exception_ptr error_;
  std::thread drawer_, expecter_, judge_;  // last: start once everything above is ready
};

// A case this check does not run.
CaseReport skipped_case(const PuzzleSpec& puzzle, int case_index, std::string message, bool needs_gpu);

}  // namespace puzzle::cli
