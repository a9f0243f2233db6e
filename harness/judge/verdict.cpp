#include "verdict.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "case_data.hpp"
#include "compare.hpp"
#include "diagnoses.hpp"
#include "format.hpp"
#include "judges.hpp"
#include "sim_report.hpp"

namespace puzzle {
namespace {

std::vector<float> without_guards(std::span<const float> with_guards) {
  if (with_guards.empty()) return {};
  return {with_guards.begin() + protocol::kGuardElems, with_guards.end() - protocol::kGuardElems};
}

// Findings of severity "error" fail the case even when the values are right: the kernel did
// something undefined that happened to work this time.
bool sim_found_errors(const nlohmann::json& sim) {
  for (const SimFinding& f : sim_findings(sim)) {
    if (f.severity == "error") return true;
  }
  return false;
}

// A block the simulator found unable to make progress is a kernel a GPU hangs in (an H200 does, on
// tests/kernels/p01/wrong_divergent_barrier.cu): the case's status is the GPU's, a timeout.
bool sim_found_deadlock(const nlohmann::json& sim) {
  for (const SimFinding& f : sim_findings(sim)) {
    if (f.kind == "deadlock") return true;
  }
  return false;
}

std::vector<std::string> notes_for(const PuzzleSpec& puzzle, const protocol::CaseRecord& record) {
  std::vector<std::string> notes;
  for (const SimFinding& f : sim_findings(record.sim)) {
    if (f.severity != "error") notes.push_back(f.severity + " " + f.kind + ": " + describe(f));
  }
  if (std::string traffic = traffic_note(record.sim, puzzle); !traffic.empty()) notes.push_back(traffic);
  // Conflicts cost time, not correctness: a note for every puzzle; a failure only over a puzzle's budget.
  if (any_bank_conflicts(record.sim))
    notes.push_back("bank conflicts: " + describe_bank_conflicts(record.sim, 3));
  return notes;
}

// Why the outputs do not count as device work (docs/grading.md), or empty. Missing evidence is a reason.
std::string device_work_problem(const protocol::CaseRecord& record) {
  if (!record.refused.empty()) return "refused: " + record.refused.front();
  if (record.kernel_launches < 0)
    return "refused: the child did not report the kernels your launcher launched";
  if (record.kernel_launches == 0)
    return "refused: your launcher launched no kernel; the outputs must be computed on the device";
  return "";
}

const Diagnosis kNoDeviceWork{
    "no_device_work",
    "a case passes only when kernels compute its outputs: launch at least one kernel, write the outputs from "
    "it, read the inputs only in kernels, and wait for any stream of your own before the launcher returns"};

// The one-line summary: the most basic problem first.
std::string summarize(const CaseResult& r, bool sim_errors, bool scratch_over, bool conflicts_over) {
  if (const std::string refusal = device_work_problem(r.record); !refusal.empty()) return refusal;
  if (const std::string error = launch_error_of(r.record); !error.empty()) return "CUDA error: " + error;
  if (r.status == CaseStatus::timeout)
    return "a block of the kernel can never finish (a GPU hangs here): the simulator stopped it";
  int64_t wrong = 0, total = 0, outside = 0;
  const Mismatch* first = nullptr;
  for (const BufferCheck& c : r.checks) {
    if (!c.available) return "output " + c.name + " could not be copied back";
    wrong += c.mismatches;
    total += c.elements;
    outside += c.guard_before + c.guard_after;
    if (!first && !c.first.empty()) first = &c.first.front();
  }
  if (wrong > 0) {
    const std::string line = std::to_string(wrong) + " of " + std::to_string(total) +
                             " elements wrong; the first at " + first->location;
    if (is_poison(first->got))
      return line + ": expected " + format_number(first->expected) + ", got nothing (never written)";
    const auto [expected, got] = format_distinct(first->expected, first->got);
    return line + ": expected " + expected + ", got " + got;
  }
  if (outside > 0) {
    return "right values, but " + std::to_string(outside) + (outside == 1 ? " float" : " floats") +
           " written out of bounds";
  }
  if (r.record.inputs_modified > 0) return "right values, but the inputs were modified";
  if (scratch_over) return "right values, but the launcher allocated too much device memory";
  if (conflicts_over) return "right values, but shared-memory bank conflicts exceed the budget";
  if (sim_errors) return "right values, but the simulator found undefined behaviour";
  double max_rel = 0;
  for (const BufferCheck& c : r.checks) max_rel = std::max(max_rel, c.max_rel_err);
  return "all " + std::to_string(total) + " elements within tolerance (max relative error " +
         format_number(max_rel) + ")";
}

bool buffers_clean(const std::vector<BufferCheck>& checks) {
  for (const BufferCheck& c : checks) {
    if (!c.available || c.mismatches > 0 || c.guard_before > 0 || c.guard_after > 0) return false;
  }
  return true;
}

}  // namespace

const char* to_string(CaseStatus s) {
  switch (s) {
    case CaseStatus::passed:
      return "passed";
    case CaseStatus::failed:
      return "failed";
    case CaseStatus::crashed:
      return "crashed";
    case CaseStatus::timeout:
      return "timeout";
    case CaseStatus::skipped:
      return "skipped";
  }
  return "unknown";
}

CaseExpectation expect_case(const PuzzleSpec& puzzle, const TestCase& test, uint64_t seed) {
  return expect_case(puzzle, test, draw_inputs(puzzle, test, seed));
}

CaseExpectation expect_case(const PuzzleSpec& puzzle, const TestCase& test, Buffers inputs) {
  CaseExpectation expectation{.inputs = std::move(inputs), .expected = {}, .allowance = {}};
  expectation.expected = expected_outputs(puzzle, test, expectation.inputs);
  expectation.allowance = error_allowance(puzzle, test, expectation.inputs);
  return expectation;
}

CaseResult judge_case(const PuzzleSpec& puzzle, const TestCase& test, uint64_t seed,
                      const std::vector<std::span<const float>>& outputs_with_guards,
                      const protocol::CaseRecord& record) {
  return judge_case(puzzle, test, expect_case(puzzle, test, seed), outputs_with_guards, record);
}

CaseResult judge_case(const PuzzleSpec& puzzle, const TestCase& test, const CaseExpectation& expectation,
                      const std::vector<std::span<const float>>& outputs_with_guards,
                      const protocol::CaseRecord& record) {
  if (outputs_with_guards.size() != puzzle.outputs.size()) {
    throw std::runtime_error("judge_case: " + std::to_string(outputs_with_guards.size()) + " outputs for " +
                             std::to_string(puzzle.outputs.size()) + " buffers");
  }
  const Buffers& inputs = expectation.inputs;
  const RefBuffers& expected = expectation.expected;
  Buffers outputs;
  CaseEvidence evidence{.puzzle = &puzzle,
                        .test = &test,
                        .inputs = &inputs,
                        .outputs = &outputs,
                        .expected = &expected,
                        .allowance = &expectation.allowance,
                        .checks = {},
                        .record = record};
  for (size_t k = 0; k < puzzle.outputs.size(); ++k) {
    const std::span<const double> allowance =
        expectation.allowance.empty() ? std::span<const double>() : expectation.allowance[k];
    evidence.checks.push_back(check_buffer(puzzle.outputs[k], test.params, outputs_with_guards[k],
                                           expected[k], puzzle.tolerance, allowance));
  }

  CaseResult r;
  r.name = test.name;
  r.params = test.params;
  r.max_points = test.points;
  r.record = record;
  r.checks = evidence.checks;
  const bool sim_errors = sim_found_errors(record.sim);
  const bool scratch_over = scratch_too_large(puzzle, test.params, record);
  const bool device_work = device_work_problem(record).empty();
  const bool conflicts_over = bank_conflicts_over(puzzle, test.params, record);
  const bool passed = buffers_clean(r.checks) && record.inputs_modified == 0 &&
                      launch_error_of(record).empty() && !sim_errors && !scratch_over && !conflicts_over &&
                      device_work;
  r.status = passed                                    ? CaseStatus::passed
             : kernel_crashed(launch_error_of(record)) ? CaseStatus::crashed
             : sim_found_deadlock(record.sim)          ? CaseStatus::timeout
                                                       : CaseStatus::failed;
  r.points = passed ? test.points : 0;
  if (!device_work) r.diagnoses.push_back(kNoDeviceWork);
  if (!passed) {  // the diagnoses read the outputs without their guards (copies of up to 1 GiB: only here)
    for (const auto& with_guards : outputs_with_guards) outputs.push_back(without_guards(with_guards));
    generic_diagnoses(evidence, r.diagnoses);
    judge_of(puzzle).diagnose(evidence, r.diagnoses);
  }
  r.notes = notes_for(puzzle, record);
  r.message = summarize(r, sim_errors, scratch_over, conflicts_over);
  if (record.time_ms > 0) {
    const double seconds = record.time_ms * 1e-3;
    if (puzzle.min_bytes) r.gbps = puzzle.min_bytes(test.params) / seconds * 1e-9;
    if (puzzle.flops) r.tflops = puzzle.flops(test.params) / seconds * 1e-12;
  }
  return r;
}

CaseResult failed_run(const PuzzleSpec& /*puzzle*/, const TestCase& test, CaseStatus status,
                      std::string message, std::vector<Diagnosis> diagnoses) {
  CaseResult r;
  r.name = test.name;
  r.params = test.params;
  r.status = status;
  r.max_points = test.points;
  r.diagnoses = std::move(diagnoses);
  r.message = std::move(message);
  return r;
}

}  // namespace puzzle
