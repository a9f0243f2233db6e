#include <doctest/doctest.h>

#include <fstream>

#include "judge/grade_performance.hpp"
#include "model/grade_report.hpp"
#include "pipelines/course_points.hpp"
#include "pipelines/grade_seed.hpp"
#include "pipelines/puzzle_selection.hpp"
#include "pipelines/submission_files.hpp"
#include "report_fixture.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;

namespace {

std::vector<int> ids(const std::vector<const puzzle::PuzzleSpec*>& specs) {
  std::vector<int> out;
  for (const auto* s : specs) out.push_back(s->id);
  return out;
}

}  // namespace

TEST_CASE("--puzzles: every puzzle by default, else ids and ranges in registry order, each once") {
  REQUIRE(puzzle::all_puzzles().size() >= 4);
  CHECK(select_puzzles("").size() == puzzle::all_puzzles().size());
  CHECK(ids(select_puzzles("3,1")) == std::vector<int>{1, 3});
  CHECK(ids(select_puzzles("1,2-4,2")) == std::vector<int>{1, 2, 3, 4});
  CHECK_THROWS_AS(select_puzzles("4-2"), UsageError);
  CHECK_THROWS_AS(select_puzzles("one"), UsageError);
  CHECK_THROWS_AS(select_puzzles("1,,x"), UsageError);
  CHECK_THROWS_WITH_AS(select_puzzles("1,99"), doctest::Contains("no puzzle 99"), UsageError);
}

TEST_CASE("a submission's puzzle file: found at any depth, the shallowest first, hidden folders skipped") {
  TempDir dir("cli-grade-");
  const auto make = [&](const std::string& relative) {
    write_atomically(dir.path() / relative, "// " + relative + "\n");
    return dir.path() / relative;
  };
  const puzzle::PuzzleSpec& row = *puzzle::find_puzzle(1);
  const auto graded = [&](const puzzle::PuzzleSpec& p) { return find_submitted_file(dir.path(), p).graded; };
  CHECK_FALSE(graded(row));
  make(".git/01_row_softmax.cu");
  make("__MACOSX/01_row_softmax.cu");
  CHECK_FALSE(graded(row));
  const auto deep = make("repo/puzzles/01_row_softmax.cu");
  CHECK(graded(row) == deep);
  const auto b = make("b/01_row_softmax.cu");
  make("c/01_row_softmax.cu");
  CHECK(graded(row) == b);  // same depth: the first by path
  const auto top = make("01_row_softmax.cu");
  const SubmittedFile found = find_submitted_file(dir.path(), row);
  CHECK(found.graded == top);
  CHECK_FALSE(found.near_name);
  CHECK(found.others.size() == 3);  // named, so that a class in one folder is not graded as one student
  const std::string note = file_note(found, row, dir.path());
  CHECK(note.find("graded 01_row_softmax.cu of 4 candidates; not graded: b/01_row_softmax.cu") == 0);
  CHECK(note.find("grade --class") != std::string::npos);
  CHECK_FALSE(graded(*puzzle::find_puzzle(2)));
}

TEST_CASE("near names of a puzzle's file are graded and said so; other puzzles' names are not") {
  TempDir dir("cli-grade-");
  const puzzle::PuzzleSpec& row = *puzzle::find_puzzle(1);
  for (const std::string name : {"01_row_softmax (1).cu", "01_Row_Softmax.cu", "row_softmax.cu",
                                 "1-row-softmax.cu", "01_row_softmax copy.cu", "01_row_softmax-2.CU"}) {
    CAPTURE(name);
    std::filesystem::remove_all(dir.path() / "s");
    write_atomically(dir.path() / "s" / name, "//\n");
    const SubmittedFile found = find_submitted_file(dir.path() / "s", row);
    REQUIRE(found.graded);
    CHECK(found.near_name);
    CHECK(file_note(found, row, dir.path() / "s") == "graded " + name + " as 01_row_softmax.cu");
    CHECK(unmatched_cuda_files(dir.path() / "s").empty());
  }
  std::filesystem::remove_all(dir.path() / "s");
  for (const std::string name :
       {"02_row_softmax.cu", "01_tiled_softmax.cu", "softmax.cu", "01_row_softmax.cuh"})
    write_atomically(dir.path() / "s" / name, "//\n");
  CHECK_FALSE(find_submitted_file(dir.path() / "s", row).graded);
  CHECK(unmatched_cuda_files(dir.path() / "s").size() == 3);  // the .cuh is no candidate at all
  // The exact name wins over a near one, whatever the depth.
  write_atomically(dir.path() / "s" / "deep" / "01_row_softmax.cu", "//\n");
  write_atomically(dir.path() / "s" / "01_row_softmax (2).cu", "//\n");
  const SubmittedFile both = find_submitted_file(dir.path() / "s", row);
  CHECK(both.graded == dir.path() / "s" / "deep" / "01_row_softmax.cu");
  CHECK_FALSE(both.near_name);
}

TEST_CASE("a course: the puzzles graded and each one's points, from a file or --weights") {
  const auto course = parse_course("# week 1\n1 10   # row softmax\n\nonline_softmax 20\n", "course.txt");
  REQUIRE(course.size() == 2);
  CHECK(course[0].spec->id == 1);
  CHECK(course[0].points == 10);
  CHECK(course[1].spec->id == 3);
  CHECK(course[1].points == 20);
  const auto weights = parse_weights("3=2.5,1=0");
  REQUIRE(weights.size() == 2);
  CHECK(weights[0].spec->id == 1);  // registry order
  CHECK(weights[1].points == 2.5);
  CHECK_THROWS_WITH_AS(parse_course("1 10\n99 5\n", "c.txt"), doctest::Contains("c.txt:2"), UsageError);
  CHECK_THROWS_WITH_AS(parse_course("1 ten\n", "c.txt"), doctest::Contains("not a number"), UsageError);
  CHECK_THROWS_WITH_AS(parse_course("1 10 extra\n", "c.txt"), doctest::Contains("c.txt:1"), UsageError);
  CHECK_THROWS_WITH_AS(parse_course("1 -1\n", "c.txt"), doctest::Contains("0 or more"), UsageError);
  CHECK_THROWS_WITH_AS(parse_course("1 5\n01 5\n", "c.txt"), doctest::Contains("twice"), UsageError);
  CHECK_THROWS_WITH_AS(parse_course("# nothing\n", "c.txt"), doctest::Contains("names no puzzle"),
                       UsageError);
  CHECK_THROWS_AS(parse_weights("1:10"), UsageError);
}

TEST_CASE("a course's points: a puzzle's cases share them, in the scores and in Gradescope's tests") {
  GradedPuzzle p{.state = GradeState::graded, .weight = 10.0};
  p.report.score = 3;
  p.report.max_score = 4;
  CHECK(p.score() == 7.5);
  CHECK(p.max_score() == 10);
  CHECK(p.case_scale() == 2.5);
  p.weight.reset();
  CHECK(p.score() == 3);
  CHECK(p.max_score() == 4);
}

TEST_CASE("the grade's seed: --seed, else the secret (file option, file variable, variable), else fixed") {
  TempDir dir("cli-grade-");
  const auto secret_file = dir.path() / "secret";
  write_atomically(secret_file, "  correct horse battery staple\n");
  const auto other_file = dir.path() / "other";
  write_atomically(other_file, "another secret");

  const GradeSeed fixed = resolve_grade_seed(std::nullopt, {});
  CHECK(fixed.source == SeedSource::fixed);
  CHECK(fixed.value == kDefaultGradeSeed);

  const GradeSeed option = resolve_grade_seed(7, {.file_option = secret_file, .variable = "x"});
  CHECK(option.source == SeedSource::option);
  CHECK(option.value == 7);

  const GradeSeed from_file = resolve_grade_seed(std::nullopt, {.file_option = secret_file, .variable = "x"});
  CHECK(from_file.source == SeedSource::secret);
  CHECK(from_file.value == seed_from_secret("correct horse battery staple"));  // surrounding blanks dropped
  CHECK(resolve_grade_seed(std::nullopt, {.file_variable = other_file.string(), .variable = "x"}).value ==
        seed_from_secret("another secret"));
  CHECK(resolve_grade_seed(std::nullopt, {.variable = "x"}).value == seed_from_secret("x"));

  CHECK_THROWS_AS(resolve_grade_seed(std::nullopt, {.variable = "  \n"}), UsageError);
  CHECK_THROWS_AS(resolve_grade_seed(std::nullopt, {.file_option = dir.path() / "missing"}), UsageError);
}

TEST_CASE("a secret becomes a seed that is stable, JSON-exact and different from another secret's") {
  const uint64_t a = seed_from_secret("alpha");
  CHECK(a == seed_from_secret("alpha"));
  CHECK(a != seed_from_secret("alpha "));
  CHECK(a < (uint64_t{1} << 53));
  CHECK(a != kDefaultGradeSeed);
}

TEST_CASE("speed points: the geometric mean of kernel / solution, full points from 95% of it") {
  PuzzleReport p = testing::fixture_report().puzzles.front();
  p.status = PuzzleStatus::passed;
  p.cases[0].result.gbps = 50.0;
  p.cases[0].result.solution_gbps = 100.0;
  p.cases[1].result.tflops = 200.0;  // TFLOP/s is preferred where both are known
  p.cases[1].result.gbps = 1.0;
  p.cases[1].solution_tflops = 100.0;
  p.cases[1].result.solution_gbps = 100.0;
  PerformancePart part = performance_part(p, 10);
  REQUIRE(part.ratio);
  CHECK(*part.ratio == doctest::Approx(1.0));  // sqrt(0.5 * 2)
  CHECK(part.points == 10);

  p.cases[1].result.tflops = 50.0;
  part = performance_part(p, 10);
  CHECK(*part.ratio == doctest::Approx(0.5));
  CHECK(part.points == doctest::Approx(5.3));  // 0.5 / 0.95 of the points: full points from 95% on

  p.cases[1].result.tflops = 190.0;  // sqrt(0.5 * 1.9) = 0.975: timing noise costs nothing
  part = performance_part(p, 10);
  CHECK(part.points == 10);

  p.status = PuzzleStatus::failed;
  part = performance_part(p, 10);
  CHECK(part.points == 0);
  CHECK(part.max_points == 10);
  CHECK_FALSE(part.ratio);

  p.status = PuzzleStatus::passed;
  p.cases[0].implausible_time = true;  // timed faster than the GPU can go: no speed points at all
  part = performance_part(p, 10);
  CHECK(part.points == 0);
  CHECK(part.message.find("faster than the GPU can run it") != std::string::npos);
  p.cases[0].implausible_time = false;

  for (auto& c : p.cases) c.result.solution_gbps.reset(), c.solution_tflops.reset();
  part = performance_part(p, 10);
  CHECK(part.points == 0);
  CHECK(part.message.find("no timed case") != std::string::npos);

  // On the simulator: the estimates, the solution's beside the kernel's.
  for (auto& c : p.cases) c.result.gbps.reset();
  p.cases.front().estimate = SpeedEstimate{.gpu = "H100", .ms = 0.4, .solution_ms = 0.2};
  part = performance_part(p, 10);
  REQUIRE(part.ratio);
  CHECK(*part.ratio == doctest::Approx(0.5));
  CHECK(part.points == doctest::Approx(5.3));
  CHECK(part.message.find("estimated on the simulator for an H100") != std::string::npos);
}

TEST_CASE("speed part in a grade: only with points; a puzzle not graded keeps the maximum") {
  GradedPuzzle p{.report = testing::fixture_report().puzzles.front(), .state = GradeState::graded};
  p.report.status = PuzzleStatus::failed;
  CHECK_FALSE(speed_part(p, 0));
  const auto graded = speed_part(p, 4);
  REQUIRE(graded);
  CHECK(graded->message == "speed counts only when every case passes");

  const double cases_max = p.max_score();  // no speed part yet
  for (GradeState state : {GradeState::missing, GradeState::out_of_time, GradeState::pending}) {
    p.state = state;
    p.reason = "the submission has no file named 01_row_softmax.cu";
    p.performance = speed_part(p, 4);
    REQUIRE(p.performance);
    CHECK(p.performance->points == 0);
    CHECK(p.performance->max_points == 4);
    CHECK(p.performance->message == "not graded: the submission has no file named 01_row_softmax.cu");
    CHECK(p.max_score() == cases_max + 4);
    p.performance.reset();
  }
}
