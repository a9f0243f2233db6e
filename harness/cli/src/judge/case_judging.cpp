#include "case_judging.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "case_data.hpp"
#include "file_io.hpp"
#include "judges.hpp"
#include "protocol.hpp"

namespace puzzle::cli {
namespace {

// The drawing and the references start with the check, while nvcc or the compiler builds the child: at
// normal priority their threads on every core slowed puzzle 6's nvcc build from 1.5-1.9 s to 2.4-2.8 s (an
// H100's 16-core host). Niced, they take what the build and the child leave. Threads made from this one (the
// workers of parallel_for) inherit it.
void work_behind_the_compiler() {
#ifdef __linux__
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);  // Linux: per thread; failure costs only speed
#endif
}

// How far the inputs and, separately, the expectations (inputs and references) may run ahead of the
// judging: puzzle 1's three large cases (1.7 GB of inputs and references), so that the inputs are ready
// when the child gets to them and the references are computed while the child is built.
constexpr int64_t kAheadBytes = int64_t{2} << 30;

int64_t total(const std::map<int, int64_t>& bytes_per_case) {
  int64_t sum = 0;
  for (const auto& [_, bytes] : bytes_per_case) sum += bytes;
  return sum;
}

const Diagnosis kTimeoutDiagnosis{
    "timeout",
    "a kernel that never finishes usually waits at a __syncthreads() that some threads of its block never "
    "reach, or loops on a condition that never changes; if it is only slow, --timeout SEC gives it longer"};
const Diagnosis kCrashDiagnosis{
    "crash",
    "a crash inside a kernel is usually a pointer or index outside its buffer; on the host, a cudaMemcpy "
    "or cudaMalloc with a wrong size or direction"};

const Diagnosis kRefusedDiagnosis{
    "forged_evidence",
    "the harness found evidence it did not write (a progress line or an output file changed by code other "
    "than "
    "the harness's): your file must compute the outputs in kernels and leave the harness's files alone"};

// The output buffers as the child wrote them (with guards); empty where it could not copy one back (a
// dead CUDA context). Each must carry the seal its case's record gives: otherwise `problem` says which not.
std::vector<FloatImage> read_outputs(const PuzzleSpec& puzzle, int case_index, const CaseRun& run,
                                     const std::filesystem::path& work_dir, std::string& problem) {
  std::vector<FloatImage> outputs;
  const auto& seals = run.record.output_seals;
  for (int k = 0; k < static_cast<int>(puzzle.outputs.size()); ++k) {
    const auto file = protocol::output_path(work_dir, case_index, k);
    if (seals.empty() &&
        !std::filesystem::exists(file)) {  // never written: the record says why (a CUDA error)
      outputs.emplace_back(0);
      continue;
    }
    std::optional<FloatImage> image = read_floats(file);
    if (!image || static_cast<int>(seals.size()) != static_cast<int>(puzzle.outputs.size()) ||
        protocol::seal(run.key, image->bytes()) != seals[k]) {
      problem = "refused: output " + puzzle.outputs[k].name + " (" + file.filename().string() +
                ") is not the one the harness copied back from the device";
      return {};
    }
    outputs.push_back(std::move(*image));
  }
  return outputs;
}

}  // namespace

CaseReport judge_run(const PuzzleSpec& puzzle, int case_index, uint64_t seed, const CaseRun& run,
                     const std::filesystem::path& work_dir, const CaseExpectation* expectation) {
  const TestCase& test = puzzle.cases.at(case_index);
  CaseReport report{.index = case_index};
  switch (run.outcome) {
    case RunOutcome::done: {
      std::string problem;
      const auto read_from = std::chrono::steady_clock::now();
      const auto outputs = read_outputs(puzzle, case_index, run, work_dir, problem);
      if (std::getenv("PUZZLE_TIMING")) {
        std::fprintf(stderr, "[timing] case %s: outputs read and their seals checked in %.2f s\n",
                     test.name.c_str(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - read_from).count());
      }
      std::vector<std::span<const float>> images;
      for (const FloatImage& output : outputs) images.push_back(output.floats());
      report.result = !problem.empty()
                          ? failed_run(puzzle, test, CaseStatus::failed, problem, {kRefusedDiagnosis})
                      : expectation ? judge_case(puzzle, test, *expectation, images, run.record)
                                    : judge_case(puzzle, test, seed, images, run.record);
      break;
    }
    case RunOutcome::refused:
      report.result = failed_run(puzzle, test, CaseStatus::failed, run.message, {kRefusedDiagnosis});
      break;
    case RunOutcome::crashed:
      report.result = failed_run(puzzle, test, CaseStatus::crashed, run.message, {kCrashDiagnosis});
      break;
    case RunOutcome::timeout:
      report.result = failed_run(puzzle, test, CaseStatus::timeout, run.message, {kTimeoutDiagnosis});
      break;
    case RunOutcome::not_run:
      report = skipped_case(puzzle, case_index, run.message, false);
      report.result.max_points = test.points;  // it counts: the check did not get to it
      break;
  }
  report.result.notes.insert(report.result.notes.end(), run.notes.begin(), run.notes.end());
  return report;
}

ConcurrentJudge::ConcurrentJudge(const PuzzleSpec& puzzle, uint64_t seed, std::vector<int> cases,
                                 std::filesystem::path work_dir)
    : puzzle_(puzzle),
      seed_(seed),
      cases_(std::move(cases)),
      work_dir_(std::move(work_dir)),
      print_timing_(std::getenv("PUZZLE_TIMING") != nullptr),
      drawer_([this] { draw_all(); }),
      expecter_([this] { expect_all(); }),
      judge_([this] { judge_all(); }) {}

ConcurrentJudge::~ConcurrentJudge() {
  publish([&] {
    child_ended_ = true;  // finish() was not reached (an exception, a failed build): judge what is known
    stopping_ = true;     // and draw nothing more (the case being drawn is finished first)
  });
  if (judge_.joinable()) judge_.join();
  if (expecter_.joinable()) expecter_.join();
  if (drawer_.joinable()) drawer_.join();
}

void ConcurrentJudge::case_done(int case_index, const CaseRun& run) {
  publish([&] { runs_[case_index] = run; });
}

std::map<int, CaseReport> ConcurrentJudge::finish(const ChildRuns& runs) {
  std::map<int, CaseRun> streamed;
  publish([&] {
    streamed = runs_;
    for (const auto& [index, run] : runs.cases) runs_[index] = run;  // crashes, timeouts and their notes
    child_ended_ = true;
  });
  judge_.join();
  publish([&] {
    stopping_ = true;  // every case is judged: inputs still to draw are for cases that never ran
  });
  expecter_.join();
  drawer_.join();
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

void ConcurrentJudge::draw_all() {
  work_behind_the_compiler();
  try {
    for (size_t n = 0; n < cases_.size(); ++n) {
      const int index = cases_[n];
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock,
                      [&] { return stopping_ || held_bytes_.empty() || total(held_bytes_) < kAheadBytes; });
        if (stopping_) return;
        if (ended_without_outputs(index)) continue;  // over already: nothing will read its inputs
      }
      const auto drawing_from = std::chrono::steady_clock::now();
      Buffers inputs = draw_inputs(puzzle_, puzzle_.cases.at(index), seed_);
      if (print_timing_) {
        std::fprintf(stderr, "[timing] case %s: inputs drawn in %.2f s\n",
                     puzzle_.cases.at(index).name.c_str(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - drawing_from).count());
      }
      int64_t bytes = 0;
      for (size_t k = 0; k < inputs.size(); ++k) {
        bytes += static_cast<int64_t>(inputs[k].size() * sizeof(float));
        protocol::write_floats(protocol::input_path(work_dir_, index, static_cast<int>(k)), inputs[k].data(),
                               static_cast<int64_t>(inputs[k].size()));
      }
      protocol::write_floats(protocol::inputs_ready_path(work_dir_, index), nullptr, 0);
      publish([&] {
        drawn_[index] = std::move(inputs);
        held_bytes_[index] = bytes;
      });
    }
  } catch (...) {
    publish([&] { draw_error_ = std::current_exception(); });
    // The child waits for files that will not come: tell it to stop (if even this fails, the child is
    // stopped by the parent's limit on input drawing, child_runner.cpp).
    try {
      protocol::write_floats(protocol::inputs_failed_path(work_dir_), nullptr, 0);
    } catch (...) {
    }
  }
}

bool ConcurrentJudge::ended_without_outputs(int case_index) const {
  const auto known = runs_.find(case_index);
  return known != runs_.end() && known->second.outcome != RunOutcome::done;
}

std::optional<Buffers> ConcurrentJudge::drawn_inputs(int case_index) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    return drawn_.contains(case_index) || ended_without_outputs(case_index) || draw_error_ || stopping_;
  });
  if (ended_without_outputs(case_index)) return std::nullopt;  // crashed, timed out or not run: no reference
  if (const auto it = drawn_.find(case_index); it != drawn_.end()) {
    Buffers inputs = std::move(it->second);
    drawn_.erase(it);
    return inputs;
  }
  if (draw_error_) std::rethrow_exception(draw_error_);
  throw std::runtime_error("the check stopped before the inputs of case " +
                           puzzle_.cases.at(case_index).name + " were drawn");
}

void ConcurrentJudge::release(int case_index) {
  publish([&] {
    drawn_.erase(case_index);
    held_bytes_.erase(case_index);
    expected_bytes_.erase(case_index);
  });
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
      if (std::optional<Buffers> inputs = drawn_inputs(index)) {  // none: the case ended without outputs
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
    publish([&] {
      stopping_ = true;  // so that the expecter and the drawer give up
    });
  }
}

CaseReport skipped_case(const PuzzleSpec& puzzle, int case_index, std::string message, bool needs_gpu) {
  const TestCase& test = puzzle.cases.at(case_index);
  CaseReport report{.index = case_index, .needs_gpu = needs_gpu};
  report.result.name = test.name;
  report.result.params = test.params;
  report.result.status = CaseStatus::skipped;
  report.result.message = std::move(message);
  return report;
}

}  // namespace puzzle::cli
