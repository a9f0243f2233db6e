#include <doctest/doctest.h>

#include "judge/perf_figures.hpp"
#include "report/text_format.hpp"
#include "report_fixture.hpp"

using namespace puzzle::cli;

namespace {

puzzle::PuzzleSpec bandwidth_puzzle() {
  puzzle::PuzzleSpec spec = testing::fixture_puzzle();
  spec.min_bytes = [](const puzzle::Params& p) { return 8.0 * p.at("rows") * p.at("cols"); };
  return spec;
}

}  // namespace

TEST_CASE("share of the copy bandwidth and the reference solution's figure") {
  const puzzle::PuzzleSpec spec = bandwidth_puzzle();
  CaseReport c{.index = 2};
  c.result.params = spec.cases[2].params;  // 4096 x 4096: 134.2 MB moved at least
  c.result.gbps = 1000.0;
  add_comparisons(spec, {.name = "GPU", .copy_gbps = 4000.0}, 0.0671088640, c);
  REQUIRE(c.result.pct_of_copy);
  CHECK(*c.result.pct_of_copy == doctest::Approx(25.0));
  REQUIRE(c.result.solution_gbps);
  CHECK(*c.result.solution_gbps == doctest::Approx(2000.0));
  CHECK_FALSE(c.solution_tflops);  // no FLOP model

  CaseReport unknown{.index = 2};
  unknown.result.gbps = 1000.0;
  add_comparisons(spec, {.name = "GPU"}, std::nullopt, unknown);  // no copy figure, no solution time
  CHECK_FALSE(unknown.result.pct_of_copy);
  CHECK_FALSE(unknown.result.solution_gbps);
}

TEST_CASE("FLOP-model puzzles get the solution's TFLOP/s") {
  puzzle::PuzzleSpec spec = bandwidth_puzzle();
  spec.flops = [](const puzzle::Params&) { return 2e12; };
  CaseReport c{.index = 0};
  c.result.params = spec.cases[0].params;
  add_comparisons(spec, {.name = "GPU"}, 10.0, c);  // 2e12 FLOP in 10 ms
  REQUIRE(c.solution_tflops);
  CHECK(*c.solution_tflops == doctest::Approx(200.0));
}

TEST_CASE("the simulator's traffic against the puzzle's minimum") {
  const puzzle::PuzzleSpec spec = bandwidth_puzzle();
  const nlohmann::json sim = {{"traffic",
                               {{{"label", "x"}, {"size", 80}, {"bytes_read", 160}, {"bytes_written", 0}},
                                {{"label", "y"}, {"size", 80}, {"bytes_read", 0}, {"bytes_written", 80}}}}};
  const auto note = minimum_traffic_note(spec, spec.cases[0], sim);  // 4 x 5: 160 bytes at least
  REQUIRE(note);
  CHECK(*note == "moved 240 B to and from global memory, 1.50x the minimum of 160 B");
  CHECK_FALSE(minimum_traffic_note(spec, spec.cases[0], nullptr));
  CHECK_FALSE(minimum_traffic_note(testing::fixture_puzzle(), spec.cases[0], sim));  // no byte model
}

TEST_CASE("byte counts read as text") {
  CHECK(format_bytes(999) == "999 B");
  CHECK(format_bytes(130000) == "130.0 KB");
  CHECK(format_bytes(4.2e9) == "4.2 GB");
}
