#include <doctest/doctest.h>

#include "diagnoses.hpp"
#include "model/build_config.hpp"
#include "pipelines/sim_cross_check.hpp"
#include "registry.hpp"
#include "support/file_io.hpp"

using namespace puzzle;
using namespace puzzle::cli;

TEST_CASE("the cross-check runs the smallest simulator case and the largest of 131072 input elements") {
  const auto inputs = [](const PuzzleSpec& p, int i) {
    int64_t total = 0;
    for (const BufferSpec& in : p.inputs) total += in.elements(p.cases[i].params);
    return total;
  };
  const auto all_of = [](const PuzzleSpec& p) {
    std::vector<int> all;
    for (size_t i = 0; i < p.cases.size(); ++i) all.push_back(static_cast<int>(i));
    return all;
  };
  const PuzzleSpec& p = *find_puzzle(1);
  const std::vector<int> cases = cross_check_cases(p, all_of(p));
  REQUIRE(cases.size() == 2);
  CHECK(p.cases[cases[0]].name == "1x1");
  for (int i : all_of(p)) {
    if (p.cases[i].sim && inputs(p, i) <= 131072) CHECK(inputs(p, i) <= inputs(p, cases[1]));
  }
  CHECK(cross_check_cases(p, {}).empty());
  CHECK(cross_check_cases(p, {cases[0]}) == std::vector<int>{cases[0]});
  // Puzzle 9: a case of several key tiles, where tiles can race (the smallest have one).
  const PuzzleSpec& attention = *find_puzzle(9);
  const std::vector<int> picked = cross_check_cases(attention, all_of(attention));
  REQUIRE(picked.size() == 2);
  CHECK(attention.cases[picked[1]].params.at("n_k") > 128);
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
