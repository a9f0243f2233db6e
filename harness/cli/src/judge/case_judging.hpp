// What the child did with a case -> a judged case.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include "model/check_report.hpp"
#include "model/child_run.hpp"

namespace puzzle::cli {

// Reads the case's outputs from `work_dir` and judges them against the reference (done cases), or reports
// the crash / timeout. With `expectation`, its inputs and reference are not computed again.
CaseReport judge_run(const PuzzleSpec& puzzle, int case_index, uint64_t seed, const CaseRun& run,
                     const std::filesystem::path& work_dir, const CaseExpectation* expectation = nullptr);

// A case this check does not run.
CaseReport skipped_case(const PuzzleSpec& puzzle, int case_index, std::string message, bool needs_gpu);

}  // namespace puzzle::cli
