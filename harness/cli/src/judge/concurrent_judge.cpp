#include "judge/concurrent_judge.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "judge/case_judging.hpp"
#include "judges.hpp"
#include "support/thread_priority.hpp"

namespace puzzle::cli {
namespace {

int64_t total(const std::map<int, int64_t>& bytes_per_case) {
  int64_t sum = 0;
  for (const auto& [_, bytes] : bytes_per_case) sum += bytes;
  return sum;
}

}  // namespace

ConcurrentJudge::ConcurrentJudge(const PuzzleSpec& puzzle, uint64_t seed, std::vector<int> cases,
                                 std::filesystem::path work_dir, DrawnInputs& inputs)
    : puzzle_(puzzle),
      seed_(seed),
      cases_(std::move(cases)),
      work_dir_(std::move(work_dir)),
      inputs_(inputs),
      print_timing_(std::getenv("PUZZLE_TIMING") != nullptr),
      expecter_([this] { expect_all(); }),
      judge_([this] { judge_all(); }) {}

ConcurrentJudge::~ConcurrentJudge() {
  publish([&] {
    child_ended_ = true;  // finish() was not reached (an exception, a failed build): judge what is known
  });
  stop();
  if (judge_.joinable()) judge_.join();
  if (expecter_.joinable()) expecter_.join();
}

void ConcurrentJudge::case_done(int case_index, const CaseRun& run) {
  publish([&] { runs_[case_index] = run; });
  if (run.outcome != RunOutcome::done) inputs_.not_needed(case_index);
}

std::map<int, CaseReport> ConcurrentJudge::finish(const ChildRuns& runs) {
  std::map<int, CaseRun> streamed;
  publish([&] {
    streamed = runs_;
    for (const auto& [index, run] : runs.cases) runs_[index] = run;  // crashes, timeouts and their notes
    child_ended_ = true;
  });
  for (const auto& [index, run] : runs.cases) {
    if (run.outcome != RunOutcome::done) inputs_.not_needed(index);
  }
  judge_.join();
  stop();  // every case is judged: inputs still to draw are for cases that never ran
  expecter_.join();
  if (error_) std::rethrow_exception(error_);
  // The stream's word on a case can change once the child has ended: a forged line refuses the whole run,
  // and a GPU check adds the simulator's findings to its small cases. Those are judged again, as they end.
  for (const auto& [index, run] : runs.cases) {
    const auto before = streamed.find(index);
    if (before == streamed.end() || !reports_.contains(index)) continue;
    if (run.outcome != before->second.outcome || run.record.sim != before->second.record.sim ||
        !run.notes.empty())
      reports_[index] = judge_run(puzzle_, index, seed_, run, work_dir_);
  }
  return std::move(reports_);
}

void ConcurrentJudge::release(int case_index) {
  publish([&] { expected_bytes_.erase(case_index); });
  inputs_.release(case_index);
}

void ConcurrentJudge::stop() {
  publish([&] { stopping_ = true; });
  inputs_.stop();
}

void ConcurrentJudge::expect_all() {
  work_behind_the_compiler();
  const int reference_buffers = judge_of(puzzle_).allowance ? 2 : 1;  // in double: the reference, allowance
  const auto bytes_of = [&](const TestCase& test) {
    int64_t bytes = 0;
    for (const BufferSpec& in : puzzle_.inputs) bytes += in.elements(test.params) * int64_t{sizeof(float)};
    for (const BufferSpec& out : puzzle_.outputs)
      bytes += reference_buffers * out.elements(test.params) * int64_t{sizeof(double)};
    return bytes;
  };
  try {
    for (const int index : cases_) {
      const TestCase& test = puzzle_.cases.at(index);
      const int64_t bytes = bytes_of(test);
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] {
          return stopping_ || expected_bytes_.empty() || total(expected_bytes_) + bytes <= kAheadBytes;
        });
        if (stopping_) return;
      }
      std::optional<CaseExpectation> expectation;
      if (std::optional<Buffers> inputs = inputs_.take(index)) {  // none: the case ended without outputs
        const auto from = std::chrono::steady_clock::now();
        expectation = expect_case(puzzle_, test, std::move(*inputs));
        if (print_timing_) {
          std::fprintf(stderr, "[timing] case %s: reference computed in %.2f s\n", test.name.c_str(),
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count());
        }
      }
      publish([&] {
        expected_[index] = std::move(expectation);
        expected_bytes_[index] = bytes;
      });
    }
  } catch (...) {
    publish([&] { expect_error_ = std::current_exception(); });
  }
}

void ConcurrentJudge::judge_all() {
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
  try {
    for (const int index : cases_) {
      const auto start = Clock::now();
      std::optional<CaseExpectation> expectation;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return expected_.contains(index) || expect_error_ || stopping_; });
        if (!expected_.contains(index)) {
          if (expect_error_) std::rethrow_exception(expect_error_);
          return;  // stopped early: nothing more is judged
        }
        expectation = std::move(expected_.at(index));
        expected_.erase(index);
      }
      const auto expected = Clock::now();
      CaseRun run;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return runs_.contains(index) || child_ended_; });
        if (!runs_.contains(index)) return;  // only when finish() was never reached (run_child threw)
        run = runs_.at(index);
      }
      const auto ran = Clock::now();
      CaseReport report =
          judge_run(puzzle_, index, seed_, run, work_dir_, expectation ? &*expectation : nullptr);
      const auto judged = Clock::now();
      expectation.reset();
      release(index);
      if (print_timing_) {
        std::fprintf(stderr,
                     "[timing] case %s: waited %.2f s for its inputs + reference (computed ahead), "
                     "then %.2f s for the child, then read + compared the outputs in %.2f s and freed them "
                     "in %.2f s\n",
                     puzzle_.cases.at(index).name.c_str(), seconds(expected - start), seconds(ran - expected),
                     seconds(judged - ran), seconds(Clock::now() - judged));
      }
      std::lock_guard lock(mutex_);
      reports_[index] = std::move(report);
    }
  } catch (...) {
    error_ = std::current_exception();
    stop();  // so that the expecter and the drawer give up
  }
}

}  // namespace puzzle::cli
