#include "commands/commands.hpp"
#include "learner/progress_store.hpp"
#include "pipelines/bench_pipeline.hpp"
#include "report/bench_console.hpp"
#include "report/bench_files.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {
namespace {

std::filesystem::path default_chart(const BuildConfig& config, const PuzzleSpec& spec) {
  char name[32];
  std::snprintf(name, sizeof name, "bench_%02d.svg", spec.id);
  return progress_file(config.source_dir).parent_path() / name;
}

}  // namespace

int bench_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err) {
  const BenchOptions& options = command.bench;
  const BenchObserver observer{
      .started = [&](const BenchReport& r) { print_bench_header(out, style, r); },
      .kernel_started = [&](const BenchKernel& k) { print_bench_kernel(out, style, k, options.verbose); },
      .shape_timed = [&](const BenchReport& r, const TestCase& shape,
                         const BenchTiming& t) { print_bench_shape(out, style, r, shape, t); },
      .torch_started = [&](const std::string& command) { print_bench_torch(out, command); },
      .torch_shape_timed = [&](const BenchReport& r, const TestCase& shape, const TorchColumns& torch,
                               size_t index) { print_bench_torch_shape(out, style, r, shape, torch, index); },
  };
  BenchReport report = run_bench(options, command.text, config, observer);
  const auto fail_to_write = [&](const std::string& what, const std::exception& e) {
    err << style("error:", Tone::bad) << " cannot write the " << what << ": " << e.what() << "\n";
    if (report.exit_code == kExitPassed) report.exit_code = kExitEnvironment;
  };
  if (report.error.empty() && report.backend == Backend::gpu) {
    const auto chart = options.svg.value_or(default_chart(config, *report.spec));
    try {
      std::filesystem::create_directories(std::filesystem::absolute(chart).parent_path());
      write_atomically(chart, bench_chart_svg(report));
      report.chart = chart;
    } catch (const std::exception& e) {
      fail_to_write("chart", e);
    }
  }
  if (report.error.empty()) {
    print_bench_results(out, style, report);
  } else {
    err << style("error:", Tone::bad) << " " << report.error << "\n";
  }
  if (options.json) {
    try {
      write_atomically(*options.json, bench_to_json(report, config.version).dump(2) + "\n");
    } catch (const std::exception& e) {
      fail_to_write("JSON file", e);
    }
  }
  return report.exit_code;
}

}  // namespace puzzle::cli
