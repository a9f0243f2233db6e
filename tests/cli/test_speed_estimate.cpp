// The speed estimate in the CLI: nvcc's report read, a case's counts -> SpeedEstimate, its words and JSON.
#include <doctest/doctest.h>

#include "compile/kernel_resources.hpp"
#include "judge/speed_estimates.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "pipelines/speed_counts.hpp"
#include "registry.hpp"
#include "report/check_json.hpp"
#include "report/estimate_text.hpp"
#include "support/errors.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle;
using namespace puzzle::cli;

namespace {

// A launch of `blocks` blocks of `threads` threads, all simulated, that copies its bytes once, coalesced.
nlohmann::json copy_launch(uint64_t blocks, uint64_t threads, double bytes) {
  const double requests = bytes / 2 / 128;  // a warp's 32 floats a request, loads and stores alike
  std::vector<double> per_warp(9, 0), longest(9, 0);
  per_warp[2] = 2 * requests;
  longest[2] = 2 * requests / (blocks * threads / 32.0);
  return {{"kernel", "copy"},
          {"grid", {blocks, 1, 1}},
          {"block", {threads, 1, 1}},
          {"blocks_simulated", blocks},
          {"per_warp", per_warp},
          {"longest_thread", longest},
          {"load_requests", requests},
          {"store_requests", requests},
          {"load_sectors", 4 * requests},
          {"store_sectors", 4 * requests},
          {"lines", 2 * requests},
          {"load_bytes", 128 * requests},
          {"store_bytes", 128 * requests},
          {"load_reuse", std::vector<double>(40, 0)},
          {"first_load_sectors", 4 * requests},
          {"first_store_sectors", 4 * requests},
          {"footprint_load_bytes", bytes / 2},
          {"footprint_store_bytes", bytes / 2}};
}

CaseCounts counts_of(nlohmann::json launch) {
  return {.sim = {{"work", nlohmann::json::array({std::move(launch)})}}};
}

}  // namespace

TEST_CASE("nvcc's report: registers and stack frames by kernel, a frame of spills counting as none") {
  const std::string output =
      "ptxas info    : Compiling entry function '_Z18row_softmax_kernelPKfPfi' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z18row_softmax_kernelPKfPfi\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 79 registers, used 1 barriers, 32 bytes smem\n"
      "ptxas info    : Compiling entry function '_ZN12_GLOBAL__N_14tileILi64EEEvPKf' for 'sm_90'\n"
      "    1152 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers\n"
      "ptxas info    : Compiling entry function '_ZN12_GLOBAL__N_14tileILi128EEEvPKf' for 'sm_90'\n"
      "    16 bytes stack frame, 48 bytes spill stores, 48 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers\n";
  const perf::KernelResources r = parse_ptxas_resources(output);
  REQUIRE(r.contains("row_softmax_kernel"));
  CHECK(r.at("row_softmax_kernel").registers == 79);
  CHECK(r.at("tile<64>").registers == 40);
  CHECK(r.at("tile<64>").stack_bytes == 1152);
  CHECK(r.at("tile<128>").stack_bytes == 0);  // spilled registers, not arrays
  CHECK(r.at("tile").registers == 255);       // the bare name: the most of its instantiations
  CHECK(r.at("tile").stack_bytes == 1152);
}

TEST_CASE("a timed case's estimate beside the solution's; 10x slower gets its reason") {
  const PuzzleSpec& spec = *find_puzzle(1);
  const Params params{{"rows", 8192}, {"cols", 8192}};
  const double bytes = spec.min_bytes(params);
  const CaseCounts fast = counts_of(copy_launch(8192, 256, bytes));
  const SpeedEstimate e = speed_estimate(spec, params, estimate_gpu(""), fast, fast);
  CHECK(e.gpu == "H100");
  CHECK(e.binding == "DRAM bandwidth");
  CHECK(e.bound == "memory-bound");
  REQUIRE(e.pct_of_copy);
  CHECK(*e.pct_of_copy > 80);
  REQUIRE(e.solution_ms);
  CHECK(*e.solution_ms == doctest::Approx(e.ms));
  CHECK(e.slow_reason.empty());
  CHECK(e.sectors_per_request == doctest::Approx(4));
  const std::string line = estimate_line(e);
  INFO(line);
  CHECK(line.starts_with("estimated on an H100: 0."));
  CHECK(line.find(" ms, memory-bound at ") != std::string::npos);
  CHECK(line.find("; the solution: 0.") != std::string::npos);
  CHECK(counters_line(e).starts_with(
      "sectors per request 4.0 (100% of their bytes used), bank conflicts none"));
  CHECK(slow_line(e).empty());

  nlohmann::json serial = copy_launch(1, 1, bytes);
  serial["longest_thread"][2] = 2 * bytes / 2 / 128;  // the one thread makes every access
  const SpeedEstimate slow = speed_estimate(spec, params, estimate_gpu("h200"), counts_of(serial), fast);
  CHECK(slow.gpu == "H200");
  CHECK(slow.busy_sms == 1);
  CHECK(slow.slow_reason == "one block: 1 of 132 SMs busy, one thread per block");
  CHECK(slow_line(slow).find("x the solution's estimate: one block: 1 of 132 SMs busy") != std::string::npos);
  CHECK_THROWS_AS(estimate_gpu("a100"), UsageError);
}

TEST_CASE("a solution whose blocks wait for one another is no yardstick; bounds are said") {
  const PuzzleSpec& spec = *find_puzzle(1);
  const Params params{{"rows", 8192}, {"cols", 8192}};
  nlohmann::json waiting = copy_launch(8192, 256, spec.min_bytes(params));
  waiting["waits_for_blocks"] = true;
  const SpeedEstimate e = speed_estimate(spec, params, estimate_gpu("h100"),
                                         counts_of(copy_launch(1, 1, 1e6)), counts_of(waiting));
  CHECK_FALSE(e.solution_ms);
  CHECK(e.slow_reason.empty());
  CHECK(estimate_time(0.0123) == "12.3 us");
  CHECK(estimate_time(1.5, true) == "at least 1.500 ms");
  CHECK(estimate_time(25, false, true) == "at most 25.0 ms");
}

TEST_CASE("a file's counts are kept by its content, for the files stored last") {
  TempDir dir("cli-estimate-cache-");
  BuildConfig config = build_config();
  config.build_dir = dir.path();
  const PuzzleSpec& spec = lookup_puzzle("1");
  const auto source = [](int n) {
    return PuzzleSource{.file = "row_softmax.cu", .text = "// version " + std::to_string(n) + "\n"};
  };
  const CountsRequest request{.indices = {16, 17}};
  CHECK(stored_counts(config, spec, source(0), request).missing == std::vector<int>{16, 17});

  const CaseCounts counts{.sim = {{"work", nlohmann::json::array({copy_launch(8, 256, 1 << 20)})}},
                          .resources = {{"copy", {.registers = 40, .stack_bytes = 0}}}};
  store_counts(config, spec, source(0), false, {{16, counts}});
  StoredCounts stored = stored_counts(config, spec, source(0), request);
  CHECK(stored.missing == std::vector<int>{17});
  REQUIRE(stored.cases.contains(16));
  CHECK(stored.cases[16].sim == counts.sim);
  CHECK(stored.cases[16].resources.at("copy").registers == 40);
  CHECK(stored_counts(config, spec, source(1), request).cases.empty());  // another text: not known

  // 256 files more: the first one's counts, used least recently, are dropped.
  for (int n = 1; n <= 256; ++n) store_counts(config, spec, source(n), false, {{16, counts}});
  CHECK(stored_counts(config, spec, source(0), request).cases.empty());
  CHECK(stored_counts(config, spec, source(256), request).cases.contains(16));
}
