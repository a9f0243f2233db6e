#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "commands/commands.hpp"
#include "learner/progress_store.hpp"
#include "model/build_config.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "report_fixture.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;

TEST_CASE("progress: the last check's status and date, the best speed of a passing check") {
  TempDir dir("cli-test-");
  const auto file = progress_file(dir.path());
  CheckReport report = testing::fixture_report();
  PuzzleReport& p = report.puzzles.front();
  p.status = PuzzleStatus::passed;
  p.cases[0].result.gbps = 100.0;
  {
    ProgressStore store(file);
    CHECK(store.get(1).status.empty());
    store.record_check(p, "2025-01-01T00:00:00Z");
    store.save();
  }
  p.cases[0].result.gbps = 80.0;  // slower: the best stays
  {
    ProgressStore store(file);
    store.record_check(p, "2025-01-02T00:00:00Z");
    store.save();
  }
  p.status = PuzzleStatus::failed;
  p.cases[0].result.gbps = 500.0;  // a failing check's speed does not count
  ProgressStore store(file);
  store.record_check(p, "2025-01-03T00:00:00Z");
  const PuzzleProgress mine = store.get(1);
  CHECK(mine.status == "failed");
  CHECK(mine.date == "2025-01-03T00:00:00Z");
  CHECK(mine.best_gbps == 100.0);
  CHECK_FALSE(mine.best_tflops);
}

TEST_CASE("a corrupt progress file starts over instead of failing") {
  TempDir dir("cli-test-");
  const auto file = progress_file(dir.path());
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << "{ not json";
  ProgressStore store(file);
  CHECK(store.get(1).hint_level == 0);
  store.record_hint(1, 2);
  store.save();
  CHECK(ProgressStore(file).get(1).hint_level == 2);
}

TEST_CASE("a hand-edited progress entry of the wrong types reads as empty instead of failing") {
  TempDir dir("cli-test-");
  const auto file = progress_file(dir.path());
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << R"({"puzzles": {"1": {"hint_level": "two", "status": 3, "date": null}}})";
  ProgressStore store(file);
  const PuzzleProgress mine = store.get(1);
  CHECK(mine.hint_level == 0);
  CHECK(mine.status.empty());
  CHECK(mine.date.empty());
  store.record_hint(1, 1);
  CHECK(store.get(1).hint_level == 1);
}

TEST_CASE("hint: each call shows the next level, --level shows the one asked for") {
  TempDir dir("cli-test-");
  BuildConfig config = build_config();
  config.source_dir = dir.path();  // progress.json goes here
  const puzzle::PuzzleSpec& spec = lookup_puzzle("1");
  const auto shown = [&](std::optional<int> level) {
    std::ostringstream out;
    CHECK(hint_command({.puzzle = "1", .level = level}, config, Style(false), out) == 0);
    return out.str();
  };
  CHECK(shown(std::nullopt).find(spec.hints[0]) != std::string::npos);
  CHECK(shown(std::nullopt).find(spec.hints[1]) != std::string::npos);
  CHECK(shown(1).find(spec.hints[0]) != std::string::npos);             // asked for: level 1 again
  CHECK(shown(std::nullopt).find(spec.hints[2]) != std::string::npos);  // the next after the highest seen
  const std::string last = shown(std::nullopt);
  CHECK(last.find(spec.hints[2]) != std::string::npos);  // there is no level 4
  CHECK(last.find("last hint") != std::string::npos);
  CHECK(ProgressStore(progress_file(dir.path())).get(1).hint_level == 3);
}
