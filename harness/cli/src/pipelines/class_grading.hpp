// `puzzle grade --class DIR` (a folder per student) or `--roster FILE` ("NAME FOLDER" lines): every
// student graded as a submission of their own, several at once, into one ClassReport.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "model/build_config.hpp"
#include "model/class_report.hpp"
#include "model/options.hpp"
#include "pipelines/grade_seed.hpp"

namespace puzzle::cli {

// The students of --class (its folders, hidden ones and __MACOSX left out, by name) or of --roster (lines
// "NAME FOLDER" or "FOLDER", folders relative to the roster, # comments). UsageError for a missing folder,
// a roster line naming none, or no student at all.
std::vector<Student> class_students(const GradeOptions& options);

// Called as the class is graded, from one thread at a time; either may be empty.
struct ClassObserver {
  std::function<void(const ClassReport&, size_t jobs)> started;  // the students are known
  std::function<void(const ClassReport&, size_t index, size_t done)> student_done;
};

// Never throws: an error that stops grading ends up in report.error and report.exit_code. `options.jobs`
// students are graded at once (0: one per core), each with the options' puzzles, course, seed and budget.
ClassReport grade_class(const GradeOptions& options, const std::string& command_text,
                        const BuildConfig& config, const SecretSeedSources& secret,
                        const ClassObserver& observer = {});

}  // namespace puzzle::cli
