#include "case_judging.hpp"

#include <cstring>

#include "file_io.hpp"

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

const Diagnosis kRefusedDiagnosis{
    "forged_evidence",
    "the harness found evidence it did not write (a progress line or an output file changed by code other "
    "than "
    "the harness's): your file must compute the outputs in kernels and leave the harness's files alone"};

// The output buffers as the child wrote them (with guards); empty where it could not copy one back (a
// dead CUDA context). Each must carry the seal its case's record gives: otherwise `problem` says which not.
std::vector<std::vector<float>> read_outputs(const PuzzleSpec& puzzle, int case_index, const CaseRun& run,
                                             const std::filesystem::path& work_dir, std::string& problem) {
  std::vector<std::vector<float>> outputs;
  const auto& seals = run.record.output_seals;
  for (int k = 0; k < static_cast<int>(puzzle.outputs.size()); ++k) {
    const auto file = protocol::output_path(work_dir, case_index, k);
    const std::optional<std::string> bytes = read_text(file);
    if (!bytes && seals.empty()) {  // never written: the child's record says why (a CUDA error)
      outputs.emplace_back();
      continue;
    }
    if (!bytes || static_cast<int>(seals.size()) != static_cast<int>(puzzle.outputs.size()) ||
        protocol::seal(run.key, *bytes) != seals[k] || bytes->size() % sizeof(float) != 0) {
      problem = "refused: output " + puzzle.outputs[k].name + " (" + file.filename().string() +
                ") is not the one the harness copied back from the device";
      return {};
    }
    std::vector<float>& image = outputs.emplace_back(bytes->size() / sizeof(float));
    std::memcpy(image.data(), bytes->data(), bytes->size());
  }
  return outputs;
}

}  // namespace

CaseReport judge_run(const PuzzleSpec& puzzle, int case_index, uint64_t seed, const CaseRun& run,
                     const std::filesystem::path& work_dir) {
  const TestCase& test = puzzle.cases.at(case_index);
  CaseReport report{.index = case_index};
  switch (run.outcome) {
    case RunOutcome::done: {
      std::string problem;
      auto outputs = read_outputs(puzzle, case_index, run, work_dir, problem);
      report.result = problem.empty()
                          ? judge_case(puzzle, test, seed, outputs, run.record)
                          : failed_run(puzzle, test, CaseStatus::failed, problem, {kRefusedDiagnosis});
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
