#include "pipelines/bench_pipeline.hpp"

#include <algorithm>

#include "compile/child_build.hpp"
#include "compile/kernel_resources.hpp"
#include "judge/case_judging.hpp"
#include "judge/perf_figures.hpp"
#include "pipelines/bench_torch.hpp"
#include "pipelines/check_pipeline.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "pipelines/speed_counts.hpp"
#include "report/text_format.hpp"
#include "run/child_runner.hpp"
#include "run/device_probe.hpp"
#include "support/errors.hpp"
#include "support/temp_dir.hpp"

namespace puzzle::cli {
namespace {

using std::chrono::milliseconds;

constexpr double kDefaultTimeoutS = 120;  // a shape's inputs are drawn on the CPU: up to 1 GiB of them
constexpr uint64_t kBenchSeed = 1;        // timings do not depend on the values drawn
constexpr size_t kTrafficCases = 2;       // the simulator counts traffic on the largest test cases

milliseconds timeout_of(const BenchOptions& options) {
  return milliseconds(static_cast<int64_t>(options.timeout_s.value_or(kDefaultTimeoutS) * 1000));
}

std::vector<const TestCase*> chosen_shapes(const PuzzleSpec& spec, const std::vector<std::string>& names) {
  std::vector<const TestCase*> shapes;
  for (const TestCase& shape : spec.sweep) {
    if (names.empty() || std::find(names.begin(), names.end(), shape.name) != names.end())
      shapes.push_back(&shape);
  }
  for (const auto& name : names) {
    const bool known = std::any_of(shapes.begin(), shapes.end(), [&](auto* s) { return s->name == name; });
    if (known) continue;
    std::string all;
    for (const TestCase& shape : spec.sweep) all += " " + shape.name;
    throw UsageError("puzzle " + std::to_string(spec.id) + " has no bench shape \"" + name +
                     "\"; its shapes are:" + all);
  }
  return shapes;
}

std::vector<BenchKernel> kernels_to_time(const BenchOptions& options, const PuzzleSpec& spec,
                                         const BuildConfig& config) {
  std::vector<BenchKernel> kernels;
  const auto ladder = solution_ladder(spec, config.source_dir);
  if (options.ladder) {
    if (ladder.empty()) throw UsageError("puzzle " + std::to_string(spec.id) + " has no solutions to time");
    // A column per version, labelled by its file name: "1_clear", "2_row_in_registers", ...
    for (const auto& version : ladder)
      kernels.push_back({.label = version.stem().string(), .source = SourceKind::solution, .file = version});
  } else {
    if (options.file) {
      kernels.push_back(
          {.label = options.file->filename().string(), .source = SourceKind::file, .file = *options.file});
    } else if (!options.solution) {
      kernels.push_back({.label = "yours", .source = SourceKind::learner});
    }
    // The yardstick: the fastest version, as `check` prints beside a learner's figures.
    if (!ladder.empty())
      kernels.push_back({.label = "solution", .source = SourceKind::solution, .file = ladder.back()});
  }
  if (!spec.baseline_title.empty() && std::filesystem::exists(config.source_dir / "baselines" / spec.file))
    kernels.push_back({.label = spec.baseline_title, .source = SourceKind::baseline});
  return kernels;
}

std::string problem_of(const CaseRun& run, const TestCase& shape, const PuzzleSpec& spec) {
  switch (run.outcome) {
    case RunOutcome::done:
      break;
    case RunOutcome::crashed:
      return "crashed: " + run.message;
    case RunOutcome::timeout:
      return "timed out: " + run.message;
    case RunOutcome::not_run:
      return "not run: " + run.message;
    case RunOutcome::refused:
      return run.message;
  }
  const protocol::CaseRecord& record = run.record;
  if (record.launch_error.find("cudaErrorMemoryAllocation") != std::string::npos) return "out of memory";
  if (!record.launch_error.empty()) return record.launch_error;
  if (record.outputs_unwritten > 0) {
    int64_t outputs = 0;
    for (const BufferSpec& out : spec.outputs) outputs += out.elements(shape.params);
    return "left " + std::to_string(record.outputs_unwritten) + " of " + std::to_string(outputs) +
           " outputs unwritten: run `puzzle check " + std::to_string(spec.id) + "` first";
  }
  if (record.time_ms <= 0) return "the child did not time it";
  return "";
}

BenchTiming timing_of(const CaseRun& run, const TestCase& shape, const PuzzleSpec& spec) {
  BenchTiming timing{.problem = problem_of(run, shape, spec)};
  if (run.outcome == RunOutcome::done && run.record.scratch_bytes != protocol::kUnknownBytes)
    timing.memory_bytes = run.record.scratch_bytes;
  if (!timing.problem.empty()) return timing;
  timing.time_ms = run.record.time_ms;
  timing.rate = bench_rate(spec, shape.params, run.record.time_ms);
  return timing;
}

void time_kernel(const BenchOptions& options, const BuildConfig& config, const BenchReport& report,
                 BenchKernel& kernel, const BenchObserver& observer) {
  const PuzzleSpec& spec = *report.spec;
  const PuzzleSource source = load_source(spec, kernel.source, config.source_dir, kernel.file);
  kernel.file = source.file;
  const ChildBuild build = build_child(config, spec, source, Backend::gpu);
  kernel.build = build.info;
  if (observer.kernel_started) observer.kernel_started(kernel);
  if (!build.info.ok) {
    kernel.timings.assign(report.shapes.size(), BenchTiming{.problem = "did not compile"});
    return;
  }
  std::vector<int> indices;
  for (const TestCase* shape : report.shapes) indices.push_back(static_cast<int>(shape - spec.sweep.data()));
  TempDir work("puzzle-bench-");
  const ChildRuns runs = run_child(
      {.child = build.child,
       .work_dir = work.path(),
       .job = {.puzzle = spec.id, .seed = kBenchSeed, .mode = "sweep", .cases = indices, .backend = "gpu"},
       .case_timeout = timeout_of(options),
       .case_done = [&](int index, const CaseRun& run) {
         if (!observer.shape_timed) return;
         const TestCase& shape = spec.sweep.at(index);
         observer.shape_timed(report, shape, timing_of(run, shape, spec));
       }});
  for (size_t i = 0; i < indices.size(); ++i)
    kernel.timings.push_back(timing_of(runs.cases.at(indices[i]), *report.shapes[i], spec));
}

// The random-input test cases the simulator runs, largest first.
std::vector<int> traffic_cases(const PuzzleSpec& spec) {
  std::vector<int> cases;
  for (size_t i = 0; i < spec.cases.size(); ++i) {
    if (spec.cases[i].sim && spec.cases[i].input_kind == "random") cases.push_back(static_cast<int>(i));
  }
  const auto bytes = [&](int i) { return spec.min_bytes(spec.cases[i].params); };
  std::stable_sort(cases.begin(), cases.end(), [&](int a, int b) { return bytes(a) > bytes(b); });
  if (cases.size() > kTrafficCases) cases.resize(kTrafficCases);
  return cases;
}

TrafficCase traffic_of(const PuzzleSpec& spec, int index, const CaseRun& run,
                       const std::filesystem::path& dir) {
  const CaseReport judged = judge_run(spec, index, kBenchSeed, run, dir);
  TrafficCase traffic{.name = spec.cases[index].name,
                      .status = to_string(judged.result.status),
                      .minimum_bytes = spec.min_bytes(spec.cases[index].params)};
  const nlohmann::json& sim = run.record.sim;
  if (run.outcome != RunOutcome::done || !sim.is_object() || !sim.contains("traffic")) return traffic;
  for (const auto& t : sim["traffic"]) {
    traffic.buffers.push_back({.label = t.value("label", ""),
                               .size = t.value("size", uint64_t{0}),
                               .bytes_read = t.value("bytes_read", uint64_t{0}),
                               .bytes_written = t.value("bytes_written", uint64_t{0})});
  }
  return traffic;
}

// The simulator's estimate for each shape: the kernel's counts, its file's registers and stack frames (nvcc),
// the GPU's table.
void estimate_kernel(const BenchOptions& options, const BuildConfig& config, const BenchReport& report,
                     BenchKernel& kernel, const BenchObserver& observer) {
  const PuzzleSpec& spec = *report.spec;
  const PuzzleSource source = load_source(spec, kernel.source, config.source_dir, kernel.file);
  kernel.file = source.file;
  std::vector<int> indices;
  for (const TestCase* shape : report.shapes) indices.push_back(static_cast<int>(shape - spec.sweep.data()));
  const CountsRequest request{.indices = indices, .sweep = true, .timeout = timeout_of(options)};
  const EstimateCounts counts = source_counts(config, spec, source, request);
  kernel.build = counts.build;
  if (observer.kernel_started) observer.kernel_started(kernel);
  if (!counts.build.ok) {
    kernel.timings.assign(report.shapes.size(), BenchTiming{.problem = "did not compile"});
    return;
  }
  const perf::GpuSpec& gpu = estimate_gpu(options.gpu);
  for (const int index : indices) {
    const TestCase& shape = spec.sweep.at(index);
    BenchTiming timing;
    if (const auto made = counts.cases.find(index); made != counts.cases.end()) {
      const SpeedEstimate e = speed_estimate(spec, shape.params, gpu, made->second, std::nullopt);
      timing.time_ms = e.ms;
      timing.rate = bench_rate(spec, shape.params, e.ms);
      timing.at_least = e.at_least;
    } else {
      const auto problem = counts.problems.find(index);
      timing.problem = problem == counts.problems.end() ? "no estimate" : problem->second;
    }
    if (observer.shape_timed) observer.shape_timed(report, shape, timing);
    kernel.timings.push_back(std::move(timing));
  }
}

void count_traffic(const BenchOptions& options, const BuildConfig& config, BenchReport& report) {
  const PuzzleSpec& spec = *report.spec;
  const SourceKind kind = options.file       ? SourceKind::file
                          : options.solution ? SourceKind::solution
                                             : SourceKind::learner;
  // A solution's traffic is the fastest version's, the one that `bench` times on a GPU.
  const auto ladder = solution_ladder(spec, config.source_dir);
  const std::filesystem::path file = options.file.value_or(
      kind == SourceKind::solution && !ladder.empty() ? ladder.back() : std::filesystem::path{});
  const PuzzleSource source = load_source(spec, kind, config.source_dir, file);
  report.traffic_kernel =
      source.file.filename().string() + (kind == SourceKind::solution ? " (solution)" : "");
  const ChildBuild build = build_child(config, spec, source, Backend::sim);
  if (!build.info.ok)
    throw UsageError(source.file.string() + " does not compile: run `puzzle check` to see why");
  const std::vector<int> cases = traffic_cases(spec);
  TempDir work("puzzle-bench-");
  const ChildRuns runs =
      run_child({.child = build.child,
                 .work_dir = work.path(),
                 .job = {.puzzle = spec.id, .seed = kBenchSeed, .cases = cases, .backend = "sim"},
                 .case_timeout = timeout_of(options)});
  for (int index : cases)
    report.traffic.push_back(traffic_of(spec, index, runs.cases.at(index), work.path()));
}

}  // namespace

BenchReport run_bench(const BenchOptions& options, const std::string& command_text, const BuildConfig& config,
                      const BenchObserver& observer) {
  BenchReport report{.command = command_text, .created = utc_now()};
  report_errors(report, [&] {
    const PuzzleSpec& spec = lookup_puzzle(options.puzzle);
    report.spec = &spec;
    report.metric = spec.flops ? "TFLOP/s" : "GB/s";
    const BackendChoice choice = choose_backend(options.backend, config);
    report.backend = choice.backend;
    report.backend_reason = choice.reason;
    report.device = choice.device;
    report.shapes = chosen_shapes(spec, options.shapes);
    report.kernels = kernels_to_time(options, spec, config);
    if (choice.backend == Backend::sim) {
      // The baselines (cuBLAS) need a GPU; the simulator estimates the times of the others.
      std::erase_if(report.kernels, [](const BenchKernel& k) { return k.source == SourceKind::baseline; });
      report.estimated_on = estimate_gpu(options.gpu).name;
      report.device.copy_gbps = estimate_gpu(options.gpu).dram_bytes_per_s / 1e9;
      if (observer.started) observer.started(report);
      for (BenchKernel& kernel : report.kernels) estimate_kernel(options, config, report, kernel, observer);
      if (options.shapes.empty() && !options.ladder) count_traffic(options, config, report);
      report.exit_code = report.kernels.empty() || report.kernels.front().build.ok ? kExitPassed : kExitUsage;
      return;
    }
    if (observer.started) observer.started(report);
    for (BenchKernel& kernel : report.kernels) time_kernel(options, config, report, kernel, observer);
    report.torch = time_torch(report, options, config, timeout_of(options), observer);
    // The exit code speaks for the first kernel (the learner's, or the solution with --solution), and with
    // --ladder for every version.
    report.exit_code = kExitPassed;
    for (const BenchKernel& kernel : report.kernels) {
      if (&kernel != &report.kernels.front() && !(options.ladder && kernel.source == SourceKind::solution))
        continue;
      const bool all_timed = std::all_of(kernel.timings.begin(), kernel.timings.end(),
                                         [](const BenchTiming& t) { return t.problem.empty(); });
      if (!kernel.build.ok) {
        report.exit_code = kExitUsage;
      } else if (!all_timed && report.exit_code == kExitPassed) {
        report.exit_code = kExitKernelFailed;
      }
    }
  });
  return report;
}

}  // namespace puzzle::cli
