#include <doctest/doctest.h>

#include "commands/command_line.hpp"
#include "parse_fixture.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;

using puzzle::cli::testing::parse;

TEST_CASE("grade with no options: every puzzle of puzzles/, no reports, no limits") {
  const auto parsed = parse({"grade"});
  REQUIRE(parsed.command);
  CHECK(parsed.command->kind == CommandKind::grade);
  const GradeOptions& o = parsed.command->grade;
  CHECK(o.backend == BackendRequest::automatic);
  CHECK_FALSE(o.submission);
  CHECK(o.puzzles.empty());
  CHECK_FALSE(o.seed);
  CHECK_FALSE(o.json);
  CHECK_FALSE(o.gradescope);
  CHECK_FALSE(o.junit);
  CHECK_FALSE(o.time_budget_s);
  CHECK(o.perf_points == 0);
}

TEST_CASE("grade with every option") {
  TempDir dir("cli-grade-");
  const auto parsed = parse({"grade",
                             "--backend",
                             "sim",
                             "--submission",
                             dir.path().string(),
                             "--puzzles",
                             "1,3-5",
                             "--seed",
                             "9",
                             "--secret-seed-file",
                             "/etc/secret",
                             "--json",
                             "r.json",
                             "--gradescope",
                             "results.json",
                             "--junit",
                             "junit.xml",
                             "--timeout",
                             "20",
                             "--time-budget",
                             "300",
                             "--perf-points",
                             "2"});
  REQUIRE(parsed.command);
  const GradeOptions& o = parsed.command->grade;
  CHECK(o.backend == BackendRequest::sim);
  CHECK(o.submission == dir.path());
  CHECK(o.puzzles == "1,3-5");
  CHECK(o.seed == 9u);
  CHECK(o.secret_seed_file == std::filesystem::path("/etc/secret"));
  CHECK(o.json == std::filesystem::path("r.json"));
  CHECK(o.gradescope == std::filesystem::path("results.json"));
  CHECK(o.junit == std::filesystem::path("junit.xml"));
  CHECK(o.timeout_s == doctest::Approx(20));
  CHECK(o.time_budget_s == doctest::Approx(300));
  CHECK(o.perf_points == 2);
}

TEST_CASE("grade, watch, next and reset: usage errors") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"grade", "--submission", "/no/such/folder"}, "submission"},
      {{"grade", "--time-budget", "0"}, "time-budget"},
      {{"grade", "--perf-points", "-1"}, "perf-points"},
      {{"grade", "--seed", "x"}, "seed"},
      {{"grade", "--class", "/no/such/class"}, "class"},
      {{"grade", "--puzzles", ""}, "names no puzzle"},
      {{"grade", "--puzzles", "1", "--course", "/etc/hostname"}, "excludes"},
      {{"grade", "--class", "/tmp", "--json", "r.json"}, "excludes"},
      {{"grade", "--class", "/tmp", "--roster", "/etc/hostname"}, "excludes"},
      {{"reset"}, "puzzle"},
      {{"next", "1"}, "1"},
  };
  for (const auto& [args, says] : cases) {
    CAPTURE(says);
    const auto parsed = parse(args);
    CHECK_FALSE(parsed.command);
    CHECK(parsed.exit_code == 2);
    CHECK(parsed.output.find(says) != std::string::npos);
  }
}

TEST_CASE("grade --class, --roster, --course and --weights") {
  const auto parsed =
      parse({"grade", "--class", "/tmp", "--out", "marks", "--jobs", "3", "--weights", "1=10"});
  REQUIRE(parsed.command);
  const GradeOptions& o = parsed.command->grade;
  CHECK(o.class_dir == std::filesystem::path("/tmp"));
  CHECK(o.out == std::filesystem::path("marks"));
  CHECK(o.jobs == 3);
  CHECK(o.weights == "1=10");
  CHECK(parse({"grade", "--roster", "/etc/hostname"}).command->grade.roster);
  CHECK(parse({"grade", "--course", "/etc/hostname"}).command->grade.course);
  CHECK(parse({"grade"}).command->grade.out == std::filesystem::path("grades"));
  CHECK_FALSE(parse({"watch"}).command->check.puzzle.size());  // the next puzzle
  CHECK(parse({"reset", "1", "--undo"}).command->reset.undo);
}

TEST_CASE("watch takes check's options; next and reset; check --sanitize") {
  const auto watch = parse({"watch", "3", "--backend", "sim", "--seed", "4", "--case", "1x1"});
  REQUIRE(watch.command);
  CHECK(watch.command->kind == CommandKind::watch);
  CHECK(watch.command->check.puzzle == "3");
  CHECK(watch.command->check.seed == 4u);
  CHECK(watch.command->check.cases == std::vector<std::string>{"1x1"});
  CHECK(parse({"next"}).command->kind == CommandKind::next);
  const auto reset = parse({"reset", "row_softmax"});
  REQUIRE(reset.command);
  CHECK(reset.command->kind == CommandKind::reset);
  CHECK(reset.command->reset.puzzle == "row_softmax");
  CHECK(parse({"check", "1", "--sanitize"}).command->check.sanitize);
  CHECK_FALSE(parse({"check", "1"}).command->check.sanitize);
}
