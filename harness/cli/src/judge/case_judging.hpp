// What the child did with a case -> a judged case.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include "check_report.hpp"
#include "child_runner.hpp"

namespace puzzle::cli {

// Reads the case's outputs from `work_dir` and judges them against the reference (done cases), or reports
// the crash / timeout.
CaseReport judge_run(const PuzzleSpec& puzzle, int case_index, uint64_t seed, const CaseRun& run,
                     const std::filesystem::path& work_dir);

// A case this check does not run.
CaseReport skipped_case(const PuzzleSpec& puzzle, int case_index, std::string message, bool needs_gpu);

}  // namespace puzzle::cli
