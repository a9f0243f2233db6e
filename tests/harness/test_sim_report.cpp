// The simulator's report, from the child's serializer to the parent's reader.
#include <doctest/doctest.h>

#include "diagnoses.hpp"
#include "sim_report.hpp"
#include "sim_report_json.hpp"

TEST_CASE("a simulator report survives the trip from the child to the parent") {
  sim::harness::Report report;
  sim::harness::Finding oob{.severity = "error",
                            .kind = "global_oob_write",
                            .message = "y[16383] written",
                            .file = "01_row_softmax.cu",
                            .line = 31,
                            .block = {126, 0, 0},
                            .thread = {0, 0, 0},
                            .count = 2};
  report.findings = {oob, {.severity = "warning", .kind = "uncoalesced", .message = "stride 129"}};
  report.traffic = {{.label = "x", .size = 400, .bytes_read = 800, .bytes_written = 0},
                    {.label = "y", .size = 400, .bytes_read = 0, .bytes_written = 400}};
  sim::harness::LaunchRecord refused{.kernel = "softmax_kernel", .grid = {1, 1, 1}, .block = {2048, 1, 1}};
  refused.error = "cudaErrorInvalidConfiguration";
  report.launches = {refused};
  report.scratch_peak_bytes = 64;
  report.scratch_allocated_bytes = 32;

  const nlohmann::json j = puzzle::child::to_json(report);
  CHECK(j["scratch_peak_bytes"] == 64);
  CHECK(j["scratch_allocated_bytes"] == 32);
  CHECK(j["launches"][0]["block"] == nlohmann::json::array({2048, 1, 1}));

  const auto findings = puzzle::sim_findings(j);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].kind == "global_oob_write");
  CHECK(findings[0].block[0] == 126);
  CHECK(findings[1].severity == "warning");
  CHECK(puzzle::describe(findings[0]) ==
        "y[16383] written (at 01_row_softmax.cu:31, block (126,0,0), thread (0,0,0)); 2 times");
  CHECK(puzzle::describe(findings[1]) == "stride 129");

  const auto refused_launches = puzzle::refused_launches(j);
  REQUIRE(refused_launches.size() == 1);
  CHECK(refused_launches[0] == "kernel softmax_kernel: cudaErrorInvalidConfiguration");

  CHECK(puzzle::traffic_note(j, *puzzle::find_puzzle(1)) ==
        "traffic: x read 2.0x, y written 1.0x (budget: read x once, write y once)");
  CHECK(puzzle::traffic_note(nullptr, *puzzle::find_puzzle(1)).empty());
}

TEST_CASE("shared-memory wavefronts: to the parent, worst lines first, and the bank-conflict budget") {
  sim::harness::Report report;
  report.shared_wavefronts = {
      {.file = "/w/08_swizzle.cu", .line = 40, .instructions = 8, .wavefronts = 8, .ideal_wavefronts = 8},
      {.file = "/w/08_swizzle.cu", .line = 52, .instructions = 16, .wavefronts = 512, .ideal_wavefronts = 64},
      {.file = "/w/08_swizzle.cu", .line = 60, .instructions = 4, .wavefronts = 8, .ideal_wavefronts = 4}};
  const nlohmann::json j = puzzle::child::to_json(report);
  const auto lines = puzzle::shared_lines(j);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].line == 52);
  CHECK(lines[0].extra() == 448);
  CHECK(puzzle::bank_conflicts(j) == 452);
  CHECK(puzzle::describe_bank_conflicts(j, 1) ==
        "08_swizzle.cu:52: 16 warp instructions took 512 wavefronts where 64 would do (8.0-way)");

  puzzle::PuzzleSpec spec;
  puzzle::protocol::CaseRecord record;
  record.sim = j;
  CHECK_FALSE(puzzle::bank_conflicts_over(spec, {}, record));  // no budget: no limit
  spec.max_bank_conflicts = [](const puzzle::Params&) { return 0.0; };
  CHECK(puzzle::bank_conflicts_over(spec, {}, record));
  spec.max_bank_conflicts = [](const puzzle::Params&) { return 452.0; };
  CHECK_FALSE(puzzle::bank_conflicts_over(spec, {}, record));
  record.sim = nullptr;  // the GPU: the simulator's count does not exist there
  spec.max_bank_conflicts = [](const puzzle::Params&) { return 0.0; };
  CHECK_FALSE(puzzle::bank_conflicts_over(spec, {}, record));
}

TEST_CASE("a line whose lanes ran unevenly is shown as an estimate and not held against a budget") {
  sim::harness::Report report;
  report.shared_wavefronts = {
      {.file = "/w/k.cu",
       .line = 12,
       .instructions = 4,
       .wavefronts = 8,
       .ideal_wavefronts = 4,
       .uneven = true},
      {.file = "/w/k.cu", .line = 20, .instructions = 2, .wavefronts = 4, .ideal_wavefronts = 2}};
  const nlohmann::json j = puzzle::child::to_json(report);
  CHECK(puzzle::bank_conflicts(j) == 2);  // line 20's only
  CHECK(puzzle::any_bank_conflicts(j));
  CHECK(puzzle::describe_bank_conflicts(j, 2).find(
            "k.cu:12: 4 warp instructions took 8 wavefronts where 4 would "
            "do (2.0-way), an estimate") != std::string::npos);
  puzzle::PuzzleSpec spec;
  spec.max_bank_conflicts = [](const puzzle::Params&) { return 2.0; };
  puzzle::protocol::CaseRecord record;
  record.sim = j;
  CHECK_FALSE(puzzle::bank_conflicts_over(spec, {}, record));
}
