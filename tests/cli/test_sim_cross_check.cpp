#include <doctest/doctest.h>

#include "pipelines/sim_cross_check.hpp"
#include "registry.hpp"

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
