#include "judge/case_judging.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "protocol.hpp"
#include "support/file_io.hpp"

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

void fail_all_if_refused(std::vector<CaseReport>& cases) {
  const auto refused = [](const CaseReport& c) {
    const auto& diagnoses = c.result.diagnoses;
    return !c.result.record.refused.empty() ||
           std::any_of(diagnoses.begin(), diagnoses.end(),
                       [](const Diagnosis& d) { return d.id == kRefusedDiagnosis.id; });
  };
  const auto first = std::find_if(cases.begin(), cases.end(), refused);
  if (first == cases.end()) return;
  const CaseResult cause = first->result;
  for (CaseReport& c : cases) {
    if (c.result.status == CaseStatus::skipped || &c == &*first) continue;
    c.result.status = CaseStatus::failed;
    c.result.points = 0;
    c.result.diagnoses = cause.diagnoses;
    c.result.message = "refused in case " + cause.name + ", which voids the run: " + cause.message;
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
