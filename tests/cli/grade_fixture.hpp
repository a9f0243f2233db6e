// A small finished grade for the report tests: the check fixture's puzzle graded, plus a missing one.
#pragma once
#include "model/grade_report.hpp"
#include "report_fixture.hpp"

namespace puzzle::cli::testing {

inline const PuzzleSpec& second_fixture_puzzle() {
  static const PuzzleSpec spec = [] {
    PuzzleSpec p = fixture_puzzle();
    p.id = 2;
    p.slug = "tiled_softmax";
    p.title = "Tiled <softmax> & co";  // markup in a title must be escaped
    p.file = "02_tiled_softmax.cu";
    return p;
  }();
  return spec;
}

inline GradeReport fixture_grade() {
  const CheckReport check = fixture_report();
  GradeReport grade{.run = check, .seed_source = SeedSource::fixed, .submission = "/submissions/alice"};
  grade.run.puzzles.clear();
  grade.run.exit_code = 0;
  GradedPuzzle graded{.report = check.puzzles.front(), .state = GradeState::graded, .seconds = 2.5};
  GradedPuzzle missing{.state = GradeState::missing,
                       .reason = "the submission has no file named 02_tiled_softmax.cu"};
  missing.report.spec = &second_fixture_puzzle();
  missing.report.file = "/submissions/alice/02_tiled_softmax.cu";
  missing.report.status = PuzzleStatus::compile_error;
  CaseReport not_run{.index = 0};
  not_run.result = {
      .name = "4x5", .params = {{"rows", 4}, {"cols", 5}}, .status = CaseStatus::skipped, .max_points = 3};
  not_run.result.message = "not run: " + missing.reason;
  missing.report.cases = {not_run};
  missing.report.max_score = 3;
  grade.puzzles = {graded, missing};
  grade.seconds = 3.25;
  grade.complete = true;
  return grade;
}

}  // namespace puzzle::cli::testing
