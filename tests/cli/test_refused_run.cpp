// A refused run earns nothing: a refusal in one case fails every case of the puzzle (case_judging.hpp).
#include <doctest/doctest.h>

#include "judge/case_judging.hpp"
#include "report_fixture.hpp"

using namespace puzzle::cli;

TEST_CASE("a refusal in a later case fails the cases that passed before it, with its reason") {
  PuzzleReport p = testing::fixture_report().puzzles.front();
  REQUIRE(p.cases[0].result.status == puzzle::CaseStatus::passed);
  p.cases[1].result.record.refused = {"line 26 of x.cu: cudaMemcpy copies device memory to the host"};
  p.cases[1].result.message = "refused: line 26 of x.cu: cudaMemcpy copies device memory to the host";
  fail_all_if_refused(p.cases);
  CHECK(p.cases[0].result.status == puzzle::CaseStatus::failed);
  CHECK(p.cases[0].result.points == 0);
  CHECK(p.cases[0].result.message ==
        "refused in case 127x129, which voids the run: refused: line 26 of x.cu: cudaMemcpy copies device "
        "memory to the host");
  CHECK(p.cases[0].result.diagnoses.front().id == p.cases[1].result.diagnoses.front().id);
  CHECK(p.cases[2].result.status == puzzle::CaseStatus::skipped);  // not run here: it stays out of the score
}

TEST_CASE("forged evidence voids the run too; a run with no refusal keeps its points") {
  PuzzleReport p = testing::fixture_report().puzzles.front();
  const PuzzleReport untouched = p;
  fail_all_if_refused(p.cases);
  CHECK(p.cases[0].result.points == untouched.cases[0].result.points);
  CHECK(p.cases[0].result.status == puzzle::CaseStatus::passed);

  p.cases[1].result.diagnoses = {{"forged_evidence", "the harness found evidence it did not write"}};
  p.cases[1].result.message = "refused: line 3 of the progress file: a line the harness did not write";
  fail_all_if_refused(p.cases);
  CHECK(p.cases[0].result.status == puzzle::CaseStatus::failed);
  CHECK(p.cases[0].result.message.find("line 3 of the progress file") != std::string::npos);
}
