// The simulator's report, from the child's serializer to the parent's reader.
#include <doctest/doctest.h>

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

  const nlohmann::json j = puzzle::child::to_json(report);
  CHECK(j["scratch_peak_bytes"] == 64);
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
