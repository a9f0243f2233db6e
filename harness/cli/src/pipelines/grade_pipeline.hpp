// `puzzle grade` without the printing: every selected puzzle checked on its own (one puzzle's compile
// error or hang costs only that puzzle), within a time budget, into one GradeReport.
#pragma once
#include <functional>
#include <string>

#include "model/build_config.hpp"
#include "model/grade_report.hpp"
#include "model/options.hpp"
#include "pipelines/grade_seed.hpp"

namespace puzzle::cli {

// Called as grading goes; any may be empty. The report is complete enough to be written at each call.
struct GradeObserver {
  std::function<void(const GradeReport&)> started;                 // backend, seed and puzzles are known
  std::function<void(const GradeReport&, size_t)> puzzle_started;  // index into report.puzzles
  std::function<void(const GradeReport&, size_t)> puzzle_done;
};

// Never throws: a usage or environment error that stops grading ends up in report.run.error and
// report.run.exit_code, with the puzzles not graded marked so.
GradeReport run_grade(const GradeOptions& options, const std::string& command_text, const BuildConfig& config,
                      const SecretSeedSources& secret, const GradeObserver& observer = {});

}  // namespace puzzle::cli
