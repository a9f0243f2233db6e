#include <doctest/doctest.h>

#include "judge/device_peaks.hpp"
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

TEST_CASE("a time under the device's floor is implausible: a note, no figure") {
  const puzzle::PuzzleSpec spec = bandwidth_puzzle();
  const DeviceInfo h200{.name = "NVIDIA H200", .copy_gbps = 4260.0};
  CaseReport c{.index = 2};
  c.result.params = spec.cases[2].params;  // 4096 x 4096: 134.2 MB, more than the L2: 28 us at 4800 GB/s
  c.result.record.time_ms = 0.005;
  c.result.gbps = 26843.0;
  add_comparisons(spec, h200, 0.04, c);
  CHECK(c.implausible_time);
  CHECK_FALSE(c.result.gbps);
  REQUIRE_FALSE(c.result.notes.empty());
  CHECK(c.result.notes.back().starts_with("implausible time: 0.0050 ms is below the 0.0280 ms"));

  CaseReport fast{.index = 2};  // 33.6 us: 4000 GB/s, beside the H200's copy: a speed
  fast.result.params = spec.cases[2].params;
  fast.result.record.time_ms = 0.03355;
  fast.result.gbps = 4000.0;
  add_comparisons(spec, h200, 0.04, fast);
  CHECK_FALSE(fast.implausible_time);
  CHECK(fast.result.gbps);

  CaseReport unknown{.index = 2};  // a GPU the table does not know: no floor
  unknown.result.params = spec.cases[2].params;
  unknown.result.record.time_ms = 0.005;
  add_comparisons(spec, {.name = "NVIDIA GeForce GTX 1080"}, 0.04, unknown);
  CHECK_FALSE(unknown.implausible_time);
}

TEST_CASE("the floor of data that fits in L2 is the L2's bound, and FLOPs count at the tensor cores' peak") {
  puzzle::PuzzleSpec spec = bandwidth_puzzle();
  const DeviceInfo h100{.name = "NVIDIA H100 80GB HBM3"};
  const puzzle::Params small = spec.cases[0].params;  // 4 x 5: 160 B
  REQUIRE(fastest_possible_ms(spec, small, h100));
  CHECK(*fastest_possible_ms(spec, small, h100) == doctest::Approx(160 / (3 * 3350e9) * 1e3));
  spec.flops = [](const puzzle::Params&) { return 989e9; };  // 1 ms at 989 TFLOP/s
  CHECK(*fastest_possible_ms(spec, small, h100) == doctest::Approx(1.0));
  CHECK_FALSE(fastest_possible_ms(spec, small, {.name = "CPU simulator"}));
}
