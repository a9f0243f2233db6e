// A small finished check, for the report tests: one passed case, one failed with mismatches, one skipped.
#pragma once
#include <cmath>

#include "model/check_report.hpp"

namespace puzzle::cli::testing {

inline const PuzzleSpec& fixture_puzzle() {
  static const PuzzleSpec spec = [] {
    PuzzleSpec p;
    p.id = 1;
    p.slug = "row_softmax";
    p.title = "Row softmax";
    p.file = "01_row_softmax.cu";
    p.docs = "puzzles/01_row_softmax/README.md";
    p.cases = {{.name = "4x5", .params = {{"rows", 4}, {"cols", 5}}},
               {.name = "127x129", .params = {{"rows", 127}, {"cols", 129}}},
               {.name = "4096x4096", .params = {{"rows", 4096}, {"cols", 4096}}, .perf = true, .sim = false}};
    return p;
  }();
  return spec;
}

inline CheckReport fixture_report() {
  const PuzzleSpec& spec = fixture_puzzle();
  CheckReport report{
      .command = "puzzle check 1 --json r.json", .created = "2025-01-02T03:04:05Z", .seed = 42};
  report.backend = Backend::sim;
  report.backend_reason = "no GPU found";
  report.device.name = "CPU simulator";
  report.exit_code = 1;

  PuzzleReport p{
      .spec = &spec, .file = "/repo/puzzles/01_row_softmax/01_row_softmax.cu", .source = SourceKind::learner};
  p.status = PuzzleStatus::failed;
  p.build = {.ok = true, .seconds = 1.5, .log = ""};
  p.program_stdout = "hello from the kernel\n";

  CaseReport passed{.index = 0};
  passed.result = {.name = "4x5",
                   .params = spec.cases[0].params,
                   .status = CaseStatus::passed,
                   .points = 1,
                   .max_points = 1};
  passed.result.checks = {{.name = "y", .elements = 20, .max_abs_err = 1e-7, .max_rel_err = 1e-6}};
  passed.result.notes = {"traffic: x read 1.0x, y written 1.0x"};
  passed.result.message = "all 20 elements within tolerance";

  CaseReport failed{.index = 1};
  failed.result = {
      .name = "127x129", .params = spec.cases[1].params, .status = CaseStatus::failed, .max_points = 1};
  BufferCheck y{
      .name = "y", .elements = 16383, .mismatches = 3, .nan_count = 1, .unwritten = 1, .guard_after = 2};
  y.max_abs_err = 0.25;
  y.max_rel_err = 0.5;
  y.first = {{.index = 17, .location = "row 0, col 17", .expected = 0.125, .got = 0.375f},
             {.index = 40, .location = "row 0, col 40", .expected = 0.5, .got = std::nanf("")}};
  failed.result.checks = {y};
  failed.result.diagnoses = {{"missing_max_subtraction", "exp overflowed: subtract the row maximum first"}};
  failed.result.message = "3 of 16383 elements wrong";
  failed.result.record.sim = {{"findings", nlohmann::json::array()},
                              {"traffic", nlohmann::json::array()},
                              {"scratch_peak_bytes", 0},
                              {"scratch_live_bytes", 0},
                              {"scratch_allocated_bytes", 0}};

  CaseReport skipped{.index = 2, .needs_gpu = true};
  skipped.result = {.name = "4096x4096", .params = spec.cases[2].params, .status = CaseStatus::skipped};
  skipped.result.message = "needs a GPU";

  p.cases = {passed, failed, skipped};
  p.score = 1;
  p.max_score = 2;
  report.puzzles.push_back(p);
  return report;
}

}  // namespace puzzle::cli::testing
