// `puzzle bench`'s PyTorch columns: the request baselines/torch_bench.py gets, its answer read into
// columns (or the reason there are none), and the columns in the table, the JSON and the chart.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "judge/torch_answer.hpp"
#include "registry.hpp"
#include "report/bench_console.hpp"
#include "report/bench_files.hpp"
#include "run/torch_script.hpp"

using namespace puzzle::cli;
using nlohmann::json;

namespace {

std::vector<const puzzle::TestCase*> first_shapes(const puzzle::PuzzleSpec& spec, size_t count) {
  std::vector<const puzzle::TestCase*> shapes;
  for (size_t s = 0; s < count; ++s) shapes.push_back(&spec.sweep.at(s));
  return shapes;
}

const std::string kSdpaFirstLine =
    R"({"torch": "2.11.0+cu130", "device": "NVIDIA H100 80GB HBM3", "columns": ["SDPA flash", "SDPA cuDNN", )"
    R"("SDPA mem-efficient", "SDPA math"]})";

// Puzzle 3 benched on a GPU on two shapes: the solution, then torch.softmax as `columns` say.
BenchReport softmax_report(TorchColumns torch) {
  BenchReport r{.command = "puzzle bench 3", .created = "2026-11-25T12:00:00Z"};
  r.spec = puzzle::find_puzzle(3);
  r.backend = Backend::gpu;
  r.device = {.name = "Test GPU", .copy_gbps = 3000.0};
  r.metric = "GB/s";
  r.shapes = first_shapes(*r.spec, 2);
  r.kernels = {{.label = "solution",
                .source = SourceKind::solution,
                .timings = {{.time_ms = 0.02, .rate = 2800.0, .memory_bytes = 4096},
                            {.time_ms = 0.2, .rate = 2700.0}}}};
  r.torch = std::move(torch);
  return r;
}

TorchColumns timed_softmax() {
  return {.version = "2.11.0+cu130",
          .device = "Test GPU",
          .columns = {{.label = "torch.softmax",
                       .timings = {{.time_ms = 0.05, .rate = 1300.0}, {.problem = "out of memory"}}},
                      {.label = "SDPA flash",
                       .timings = {{.problem = "n/a: needs Half or BFloat16"},
                                   {.problem = "n/a: needs Half or BFloat16"}}}}};
}

std::string table_of(const BenchReport& report) {
  std::ostringstream out;
  print_bench_results(out, Style(false), report);
  return out.str();
}

}  // namespace

TEST_SUITE("bench_torch") {
  TEST_CASE("the torch request names the bench's shapes with their sizes and our timing") {
    const auto* softmax = puzzle::find_puzzle(1);
    const json request = torch_request(*softmax, first_shapes(*softmax, 2));
    CHECK(request["op"] == "softmax");
    CHECK(request["dtype"] == "float32");
    CHECK(request["warmup"] == 3);
    CHECK(request["reps"] == 20);
    CHECK(request["budget_ms"] == 2000.0);
    REQUIRE(request["shapes"].size() == 2);
    CHECK(request["shapes"][1] == json{{"name", "8192x8192"}, {"rows", 8192}, {"cols", 8192}});

    const auto* backward = puzzle::find_puzzle(6);
    const json shape = torch_request(*backward, first_shapes(*backward, 1))["shapes"][0];
    CHECK(torch_request(*backward, {})["op"] == "attention_backward");
    CHECK(shape["name"] == "d64_n512");
    CHECK(shape["bh"] == 1024);  // 16k tokens: batch 32 x 32 heads
    CHECK(shape["n_q"] == 512);
    CHECK(shape["n_k"] == 512);
    CHECK(shape["d"] == 64);
    CHECK(shape["causal"] == 0);
    CHECK(shape["scale"].get<double>() == doctest::Approx(0.125));
  }

  TEST_CASE("torch's answer: a median becomes the puzzle's figure, a refusal n/a with its reason") {
    const auto* forward = puzzle::find_puzzle(5);
    const auto shapes = first_shapes(*forward, 3);
    TorchAnswer answer(*forward, shapes);
    CHECK_FALSE(answer.read_line(kSdpaFirstLine));
    CHECK(
        answer.read_line(
            R"({"shape": "d64_n1024", "results": {"SDPA flash": {"error": "needs Half or )"
            R"(BFloat16"}, "SDPA mem-efficient": {"ms": 2.0}, "SDPA math": {"error": "out of memory"}}})") ==
        1);
    CHECK_FALSE(answer.read_line(R"({"shape": "d64_n999", "results": {}})"));  // not a shape of ours
    CHECK_FALSE(answer.read_line("a warning some library printed"));
    CHECK(answer.read_line(R"({"shape": "d64_n512", "results": {"SDPA mem-efficient": {"ms": -1}}})") == 0);

    const TorchColumns done = answer.finish("");
    CHECK(done.absent.empty());
    CHECK(done.version == "2.11.0+cu130");
    CHECK(done.device == "NVIDIA H100 80GB HBM3");
    REQUIRE(done.columns.size() == 4);
    CHECK(done.columns[2].label == "SDPA mem-efficient");
    const BenchTiming& timed = done.columns[2].timings[1];
    REQUIRE(timed.time_ms);
    CHECK(*timed.time_ms == 2.0);
    CHECK(*timed.rate == doctest::Approx(forward->flops(shapes[1]->params) / 2e-3 / 1e12));
    CHECK(done.columns[0].timings[1].problem == "n/a: needs Half or BFloat16");
    CHECK(done.columns[3].timings[1].problem == "out of memory");
    CHECK(done.columns[1].timings[1].problem ==
          "torch_bench.py gave no figure");  // cuDNN left out of the line
    CHECK(done.columns[2].timings[0].problem == "torch_bench.py gave no figure");  // a time that is no time
    CHECK(done.columns[2].timings[2].problem == "torch_bench.py gave no figure");  // no line at all
    CHECK(answer.finish("torch_bench.py did not answer in 120 s").columns[2].timings[2].problem ==
          "torch_bench.py did not answer in 120 s");
  }

  TEST_CASE("torch's answer: no columns, and one line that says why") {
    const auto* softmax = puzzle::find_puzzle(1);
    const auto absent = [&](const std::vector<std::string>& lines, const std::string& failure = "") {
      TorchAnswer answer(*softmax, first_shapes(*softmax, 1));
      for (const auto& line : lines) answer.read_line(line);
      const TorchColumns done = answer.finish(failure);
      CHECK(done.columns.empty());
      return done.absent;
    };
    CHECK(absent({R"j({"unavailable": "not importable (ModuleNotFoundError)"})j"}) ==
          "not importable (ModuleNotFoundError)");
    CHECK(absent({R"({"unavailable": "no CUDA device"})"}) == "no CUDA device");
    CHECK(absent({R"({"error": "op must be one of softmax"})"}, "torch_bench.py ended with exit code 2") ==
          "torch_bench.py refused the request: op must be one of softmax");
    CHECK(absent({"Segmentation fault"}) ==
          "torch_bench.py answered something else than JSON: Segmentation fault");
    CHECK(absent({R"({"torch": "2.11", "columns": []})"}) ==
          R"(torch_bench.py answered something else than JSON: {"torch": "2.11", "columns": []})");
    CHECK(absent({R"({"torch": "2.11", "columns": [7]})"})
              .starts_with("torch_bench.py answered something else"));
    CHECK(absent({}) == "torch_bench.py answered nothing");
    CHECK(absent({}, "torch_bench.py did not answer in 120 s") == "torch_bench.py did not answer in 120 s");
    CHECK(absent({std::string(200, 'x')}).size() < 140);  // garbage is quoted, not pasted whole
  }

  TEST_CASE("the table has a column per timed torch column, a line per column never timed, and its source") {
    const std::string table = table_of(softmax_report(timed_softmax()));
    CAPTURE(table);
    CHECK(table.find("torch.softmax") != std::string::npos);
    CHECK(table.find("OOM") != std::string::npos);
    CHECK(table.find("torch.softmax on 8192x8192: out of memory") != std::string::npos);
    CHECK(table.find("SDPA flash: n/a: needs Half or BFloat16 (every shape)") != std::string::npos);
    CHECK(table.find("SDPA flash  ") == std::string::npos);  // no column of it
    CHECK(table.find("torch:   2.11.0+cu130 on Test GPU") != std::string::npos);
    // ms, GB/s and % of copy for torch too; the memory column is the kernels' own
    std::istringstream lines(table);
    std::string blank, title, units;
    std::getline(lines, blank) && std::getline(lines, title) && std::getline(lines, units);
    CHECK(units.find("memory") != std::string::npos);
    CHECK(units.find("memory") == units.rfind("memory"));
    CHECK(units.find("of copy") != units.rfind("of copy"));
  }

  TEST_CASE("without torch the table has no torch column and says why in one line") {
    const std::string table = table_of(softmax_report({.absent = "not importable (ModuleNotFoundError)"}));
    CAPTURE(table);
    CHECK(table.find("torch.softmax") == std::string::npos);
    CHECK(table.find("\ntorch:   not importable (ModuleNotFoundError)\n") != std::string::npos);
  }

  TEST_CASE("the JSON and the chart have torch's columns beside the kernels") {
    const json j = bench_to_json(softmax_report(timed_softmax()), "9.9");
    CHECK(j["torch"]["absent"].is_null());
    CHECK(j["torch"]["version"] == "2.11.0+cu130");
    CHECK(j["torch"]["columns"] == json{"torch.softmax", "SDPA flash"});
    CHECK(j["kernels"].size() == 1);  // ours only
    const json& first = j["shapes"][0]["results"];
    CHECK(first["torch.softmax"]["time_ms"] == 0.05);
    CHECK(first["torch.softmax"]["memory_bytes"].is_null());
    CHECK(first["SDPA flash"]["problem"] == "n/a: needs Half or BFloat16");
    CHECK(first["solution"]["rate"] == 2800.0);

    const json without = bench_to_json(softmax_report({.absent = "no CUDA device"}), "9.9");
    CHECK(without["torch"]["absent"] == "no CUDA device");
    CHECK(without["torch"]["columns"].empty());
    CHECK(without["shapes"][0]["results"].size() == 1);

    const std::string svg = bench_chart_svg(softmax_report(timed_softmax()));
    CHECK(svg.find(">torch.softmax</text>") != std::string::npos);  // in the legend
    CHECK(svg.find("<title>torch.softmax, 4096x1024: 1300.0 GB/s</title>") != std::string::npos);
    CHECK(svg.find(">OOM<") != std::string::npos);
  }
}
