#include "model/check_report.hpp"

#include <algorithm>

#include "diagnoses.hpp"

namespace puzzle::cli {

const char* to_string(Backend b) {
  return b == Backend::gpu ? "gpu" : "sim";
}

const char* to_string(SourceKind s) {
  switch (s) {
    case SourceKind::learner:
      return "learner";
    case SourceKind::solution:
      return "solution";
    case SourceKind::baseline:
      return "baseline";
    case SourceKind::file:
      return "file";
  }
  return "?";
}

const char* to_string(PuzzleStatus s) {
  switch (s) {
    case PuzzleStatus::passed:
      return "passed";
    case PuzzleStatus::failed:
      return "failed";
    case PuzzleStatus::compile_error:
      return "compile_error";
    case PuzzleStatus::crashed:
      return "crashed";
    case PuzzleStatus::timeout:
      return "timeout";
  }
  return "?";
}

int passed_cases(const PuzzleReport& p) {
  return static_cast<int>(std::count_if(p.cases.begin(), p.cases.end(), [](const CaseReport& c) {
    return c.result.status == CaseStatus::passed;
  }));
}

int counted_cases(const PuzzleReport& p) {
  return static_cast<int>(
      std::count_if(p.cases.begin(), p.cases.end(), [](const CaseReport& c) { return !c.needs_gpu; }));
}

std::string shape_of(const Params& params) {
  std::string text;
  for (const auto& [name, value] : params)
    text += (text.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return text;
}

const Diagnosis* most_specific_diagnosis(const CaseResult& result) {
  const Diagnosis *own = nullptr, *crash = nullptr, *shared = nullptr;
  for (const Diagnosis& d : result.diagnoses) {
    if (d.id.starts_with("sim_")) continue;
    if (!generic_diagnosis(d.id)) {
      own = &d;
    } else if (d.id == "launch_error") {
      crash = &d;
    } else {
      shared = &d;
    }
  }
  return own ? own : crash ? crash : shared;
}

bool nothing_launched(const PuzzleReport& p) {
  bool any = false;
  for (const CaseReport& c : p.cases) {
    if (c.needs_gpu || c.result.status == CaseStatus::skipped) continue;
    if (c.result.record.kernel_launches != 0 || c.result.status == CaseStatus::passed) return false;
    any = true;
  }
  return any;
}

}  // namespace puzzle::cli
