// What the child did with a case -> a judged case.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "model/check_report.hpp"
#include "model/child_run.hpp"

namespace puzzle::cli {

// Reads the case's outputs from `work_dir` and judges them against the reference (done cases), or reports
// the crash / timeout. With `expectation`, its inputs and reference are not computed again.
CaseReport judge_run(const PuzzleSpec& puzzle, int case_index, uint64_t seed, const CaseRun& run,
                     const std::filesystem::path& work_dir, const CaseExpectation* expectation = nullptr);

// A refused run earns nothing (docs/grading.md): when a case was refused (a call the rules refuse, met at
// run time, or evidence the harness did not write), every judged case of the puzzle fails with its reason,
// so that no points come from the cases that ran before it.
void fail_all_if_refused(std::vector<CaseReport>& cases);

// A case this check does not run.
CaseReport skipped_case(const PuzzleSpec& puzzle, int case_index, std::string message, bool needs_gpu);

}  // namespace puzzle::cli
