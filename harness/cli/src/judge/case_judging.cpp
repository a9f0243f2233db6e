#include "case_judging.hpp"

namespace puzzle::cli {
namespace {

const Diagnosis kTimeoutDiagnosis{
    "timeout",
    "a kernel that never finishes usually waits at a __syncthreads() that some threads of its block never "
    "reach, or loops on a condition that never changes; if it is only slow, --timeout SEC gives it longer"};
const Diagnosis kCrashDiagnosis{
    "crash",
    "a crash inside a kernel is usually a pointer or index outside its buffer; on the host, a cudaMemcpy "
    "or cudaMalloc with a wrong size or direction"};

// The output buffers as the child wrote them (with guards); empty where it could not copy one back.
std::vector<std::vector<float>> read_outputs(const PuzzleSpec& puzzle, int case_index,
                                             const std::filesystem::path& work_dir) {
  std::vector<std::vector<float>> outputs;
  for (int k = 0; k < static_cast<int>(puzzle.outputs.size()); ++k) {
    outputs.push_back(protocol::read_floats(protocol::output_path(work_dir, case_index, k)));
  }
  return outputs;
}

}  // namespace

CaseReport judge_run(const PuzzleSpec& puzzle, int case_index, uint64_t seed, const CaseRun& run,
                     const std::filesystem::path& work_dir) {
  const TestCase& test = puzzle.cases.at(case_index);
  CaseReport report{.index = case_index};
  switch (run.outcome) {
    case RunOutcome::done:
      report.result = judge_case(puzzle, test, seed, read_outputs(puzzle, case_index, work_dir), run.record);
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
