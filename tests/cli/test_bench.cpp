#include <doctest/doctest.h>

#include <sstream>

#include "../harness/svg_layout.hpp"
#include "commands/command_line.hpp"
#include "model/build_config.hpp"
#include "parse_fixture.hpp"
#include "pipelines/bench_pipeline.hpp"
#include "registry.hpp"
#include "report/bench_console.hpp"
#include "report/bench_files.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;
using puzzle::cli::testing::parse;

namespace {

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A GPU bench of puzzle 3 as run_bench would leave it: the learner's kernel fast on two shapes and out
// of memory on the third, the solution timed on all three.
BenchReport gpu_report() {
  BenchReport r{.command = "puzzle bench 3", .created = "2026-11-21T12:00:00Z"};
  r.spec = puzzle::find_puzzle(3);
  r.backend = Backend::gpu;
  r.device = {.name = "Test GPU <&>", .copy_gbps = 3000.0};
  r.metric = "GB/s";
  for (size_t s = 0; s < 3; ++s) r.shapes.push_back(&r.spec->sweep.at(s));
  BenchKernel yours{.label = "yours & co"}, solution{.label = "solution", .source = SourceKind::solution};
  yours.timings = {
      {.time_ms = 1.0, .rate = 1500.0}, {.time_ms = 2.0, .rate = 2500.0}, {.problem = "out of memory"}};
  solution.timings = {{.time_ms = 0.5, .rate = 2800.0, .memory_bytes = 4096},
                      {.time_ms = 1.5, .rate = 2700.0},
                      {.time_ms = 9.0, .rate = 2600.0}};
  r.kernels = {yours, solution};
  return r;
}

}  // namespace

TEST_CASE("bench options") {
  const auto parsed = parse({"bench", "3", "--shape", "8192x8192", "--shape", "32x1048576", "--json",
                             "b.json", "--svg", "b.svg", "--timeout", "30", "--backend", "gpu"});
  REQUIRE(parsed.command);
  const BenchOptions& o = parsed.command->bench;
  CHECK(parsed.command->kind == CommandKind::bench);
  CHECK(o.puzzle == "3");
  CHECK(o.shapes == std::vector<std::string>{"8192x8192", "32x1048576"});
  CHECK(o.json == std::filesystem::path("b.json"));
  CHECK(o.svg == std::filesystem::path("b.svg"));
  CHECK(o.timeout_s == 30.0);
  CHECK(o.backend == BackendRequest::gpu);
  CHECK_FALSE(o.solution);
  CHECK(o.torch);
  CHECK_FALSE(parse({"bench", "3", "--no-torch"}).command->bench.torch);
  CHECK(parse({"bench", "3", "--solution", "--file", "x.cu"}).exit_code == 2);
  CHECK(parse({"bench", "3", "--ladder"}).command->bench.ladder);
  CHECK(parse({"bench", "3", "--ladder", "--solution"}).exit_code == 2);
  CHECK(parse({"bench", "3", "--ladder", "--file", "x.cu"}).exit_code == 2);
  CHECK(parse({"bench"}).exit_code == 2);
}

TEST_CASE("every softmax puzzle benches the issue's shapes that its rows allow") {
  const auto names = [](int id) {
    std::vector<std::string> n;
    for (const auto& shape : puzzle::find_puzzle(id)->sweep) n.push_back(shape.name);
    return n;
  };
  CHECK(names(1) == std::vector<std::string>{"4096x1024", "8192x8192", "16384x16384", "65536x128"});
  for (int id : {2, 3, 4}) {
    CHECK(names(id) == std::vector<std::string>{"4096x1024", "8192x8192", "16384x16384", "65536x128",
                                                "256x262144", "32x1048576"});
  }
  for (const auto& shape : puzzle::find_puzzle(3)->sweep) CHECK_FALSE(shape.sim);
}

TEST_CASE("the chart has a bar per timing, a mark per missing one and the copy bandwidth line") {
  const std::string svg = bench_chart_svg(gpu_report());
  CHECK(svg.starts_with("<svg"));
  CHECK(count(svg, "<title>") == 5);  // 2 + 3 timed bars
  CHECK(count(svg, ">OOM<") == 1);
  CHECK(svg.find("copy 3000 GB/s") != std::string::npos);
  CHECK(svg.find("Test GPU &lt;&amp;&gt;") != std::string::npos);
  CHECK(svg.find("yours &amp; co") != std::string::npos);
  CHECK(svg.find("<&>") == std::string::npos);
}

TEST_CASE("the chart's legend and labels fit and do not overlap, with one shape (--shape) or long names") {
  BenchReport one = gpu_report();
  one.shapes.resize(1);
  for (BenchKernel& k : one.kernels) k.timings.resize(1);
  for (const char* label : {"cuBLAS bf16 standard attention", "SDPA flash", "SDPA mem-efficient"})
    one.kernels.push_back({.label = label, .timings = {{.time_ms = 1.0, .rate = 100.0}}});
  const svg_layout::Picture picture = svg_layout::read_picture(bench_chart_svg(one));
  CHECK(svg_layout::clipped(picture).empty());
  CHECK(svg_layout::overlapping(picture).empty());
  // Six shapes of 1 kernel: each group is as wide as its label ("16384x16384"), not only its bar.
  BenchReport narrow = gpu_report();
  narrow.kernels.resize(1);
  const svg_layout::Picture labels = svg_layout::read_picture(bench_chart_svg(narrow));
  CHECK(svg_layout::overlapping(labels).empty());
}

TEST_CASE("24 shapes are drawn as small multiples, a panel per head dim and mask, at a page's width") {
  BenchReport r{.command = "puzzle bench 5", .created = "2026-11-21T12:00:00Z"};
  r.spec = puzzle::find_puzzle(5);
  r.backend = Backend::gpu;
  r.device = {.name = "Test GPU"};
  r.metric = "TFLOP/s";
  for (const auto& shape : r.spec->sweep) r.shapes.push_back(&shape);
  REQUIRE(r.shapes.size() == 24);
  for (const char* label : {"solution", "cuBLAS standard attention", "SDPA flash", "SDPA math"}) {
    BenchKernel k{.label = label};
    for (size_t s = 0; s < r.shapes.size(); ++s) k.timings.push_back({.time_ms = 1.0, .rate = 10.0 + s});
    r.kernels.push_back(k);
  }
  r.kernels[2].timings[5] = {.problem = "out of memory"};
  const std::string svg = bench_chart_svg(r);
  const svg_layout::Picture picture = svg_layout::read_picture(svg);
  CHECK(picture.width <= 1000);
  CHECK(svg_layout::clipped(picture).empty());
  CHECK(svg_layout::overlapping(picture).empty());
  for (const char* panel :
       {">not causal, d = 64<", ">causal, d = 64<", ">not causal, d = 128<", ">causal, d = 128<"})
    CHECK(count(svg, panel) == 1);
  CHECK(count(svg, ">n512<") == 4);  // the panel says d and the mask: a shape is its sequence length
  CHECK(count(svg, "<title>") == 24 * 4 - 1);
  CHECK(count(svg, ">OOM<") == 1);
}

TEST_CASE("the table's shape column fits the longest shape name, so that its rows align") {
  BenchReport r{.command = "puzzle bench 5"};
  r.spec = puzzle::find_puzzle(5);
  r.backend = Backend::gpu;
  r.metric = "TFLOP/s";
  for (const auto& shape : r.spec->sweep) {
    if (shape.name == "d64_n512" || shape.name == "d128_n16384_causal") r.shapes.push_back(&shape);
  }
  REQUIRE(r.shapes.size() == 2);
  r.kernels = {
      {.label = "solution", .timings = {{.time_ms = 1.0, .rate = 30.0}, {.time_ms = 90.0, .rate = 33.0}}}};
  std::ostringstream out;
  print_bench_results(out, Style(false), r);
  std::istringstream lines(out.str());
  std::vector<std::string> table;
  for (std::string line; std::getline(lines, line);) table.push_back(line);
  REQUIRE(table.size() >= 5);  // a blank line, the title, the units, a row per shape
  CAPTURE(out.str());
  CHECK(table[3].starts_with("d64_n512 "));
  CHECK(table[4].starts_with("d128_n16384_causal "));
  CHECK(table[3].size() == table[2].size());
  CHECK(table[4].size() == table[2].size());
}

TEST_CASE("the JSON has every kernel's figure or problem per shape") {
  const nlohmann::json j = bench_to_json(gpu_report(), "9.9");
  CHECK(j["kind"] == "bench");
  CHECK(j["metric"] == "GB/s");
  REQUIRE(j["shapes"].size() == 3);
  const auto& third = j["shapes"][2]["results"];
  CHECK(third["yours & co"]["problem"] == "out of memory");
  CHECK(third["yours & co"]["time_ms"].is_null());
  CHECK(third["solution"]["rate"] == 2600.0);
  CHECK(j["shapes"][0]["results"]["solution"]["memory_bytes"] == 4096);
  CHECK(j["shapes"][0]["min_bytes"] == 2.0 * 4096 * 1024 * 4);
  CHECK(j["kernels"][1]["source"] == "solution");
}

TEST_CASE("on the simulator bench estimates each shape's time and counts the largest cases' traffic") {
  TempDir dir("cli-bench-test-");
  BuildConfig config = build_config();
  config.build_dir = dir.path();
  const BenchReport r =
      run_bench({.puzzle = "3", .backend = BackendRequest::sim, .solution = true}, "puzzle bench 3", config);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.exit_code == 0);
  CHECK(r.estimated_on == "H100");
  REQUIRE_FALSE(r.shapes.empty());
  REQUIRE(r.kernels.size() == 1);
  REQUIRE(r.kernels[0].timings.size() == r.shapes.size());
  for (const BenchTiming& t : r.kernels[0].timings) CHECK(t.time_ms.value_or(0) > 0);
  REQUIRE(r.traffic.size() == 2);
  for (const TrafficCase& t : r.traffic) {
    CAPTURE(t.name);
    CHECK(t.status == "passed");
    REQUIRE(t.buffers.size() >= 2);
    // The online solution reads x at most twice (registers spare it part of the second read), writes y once.
    CHECK(t.buffers[0].label == "x");
    CHECK(t.buffers[0].bytes_read > t.buffers[0].size);
    CHECK(t.buffers[0].bytes_read <= 2 * t.buffers[0].size);
    CHECK(t.buffers[0].bytes_written == 0);
    CHECK(t.buffers[1].bytes_written == t.buffers[1].size);
  }
  const BenchReport shapes_on_sim = run_bench(
      {.puzzle = "3", .backend = BackendRequest::sim, .shapes = {"8192x8192"}}, "puzzle bench 3", config);
  CHECK(shapes_on_sim.exit_code == 0);
  CHECK(shapes_on_sim.shapes.size() == 1);
  CHECK(shapes_on_sim.traffic.empty());  // a shape asked for: its estimate only
}
