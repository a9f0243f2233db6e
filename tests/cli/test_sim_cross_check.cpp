#include <doctest/doctest.h>

#include "diagnoses.hpp"
#include "model/build_config.hpp"
#include "pipelines/sim_cross_check.hpp"
#include "registry.hpp"
#include "support/file_io.hpp"

using namespace puzzle;
using namespace puzzle::cli;

TEST_CASE("the cross-check runs the two smallest simulator cases of those asked for, in order") {
  const PuzzleSpec& p = *find_puzzle(1);
  std::vector<int> all;
  for (size_t i = 0; i < p.cases.size(); ++i) all.push_back(static_cast<int>(i));
  const std::vector<int> cases = cross_check_cases(p, all);
  REQUIRE(cases.size() == 2);
  CHECK(p.cases[cases[0]].name == "1x1");
  CHECK(p.cases[cases[1]].name == "1x17");
  CHECK(cross_check_cases(p, {}).empty());
}

TEST_CASE("the simulator's error findings go into the GPU records of done cases, a skip into a note") {
  ChildRuns runs;
  runs.cases[0] = {.outcome = RunOutcome::done};
  runs.cases[1] = {.outcome = RunOutcome::crashed};
  const nlohmann::json found = {{"findings", {{{"severity", "error"}, {"kind", "barrier_divergence"}}}}};
  add_cross_check({.findings = {{0, found}, {1, found}}}, runs);
  CHECK(runs.cases[0].record.sim == found);
  CHECK(runs.cases[1].record.sim.is_null());
  add_cross_check({.skipped = "the simulator cannot build this file"}, runs);
  CHECK(runs.cases[0].notes == std::vector<std::string>{"the simulator cannot build this file"});
}

TEST_CASE("where the spec has a bank-conflict budget, the cross-check brings the simulator's counts") {
  const BuildConfig& config = build_config();
  const PuzzleSpec& p = *find_puzzle(8);
  const auto file = config.source_dir / "tests" / "kernels" / "p08" / "wrong_unswizzled.cu";
  const PuzzleSource source{.file = file, .kind = SourceKind::file, .text = read_text(file).value()};
  const std::vector<int> cases = cross_check_cases(p, {0});
  auto running = start_sim_cross_check(config, p, source, cases, 1, std::nullopt);
  REQUIRE(running.has_value());
  const SimCrossCheck check = running->get();
  INFO(check.skipped);
  REQUIRE(check.findings.contains(0));
  ChildRuns runs;
  runs.cases[0] = {.outcome = RunOutcome::done};
  add_cross_check(check, runs);
  CHECK(bank_conflicts_over(p, p.cases[0].params, runs.cases[0].record));  // the GPU case fails on it
}
