#include "pipelines/check_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <random>

#include "compile/api_check.hpp"
#include "compile/child_build.hpp"
#include "compile/kernel_resources.hpp"
#include "compile/object_check.hpp"
#include "judge/case_judging.hpp"
#include "judge/concurrent_judge.hpp"
#include "judge/perf_figures.hpp"
#include "model/drawn_inputs.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "pipelines/sim_cross_check.hpp"
#include "pipelines/solution_times.hpp"
#include "pipelines/speed_counts.hpp"
#include "report/text_format.hpp"
#include "run/child_runner.hpp"
#include "run/device_probe.hpp"
#include "run/input_drawing.hpp"
#include "support/errors.hpp"
#include "support/temp_dir.hpp"
#include "support/thread_priority.hpp"

namespace puzzle::cli {
namespace {

using std::chrono::milliseconds;

uint64_t random_seed() {
  std::random_device device;
  return std::uniform_int_distribution<uint64_t>(1, 999999)(device);  // short enough to retype
}

milliseconds case_timeout(const CheckOptions& options, Backend backend) {
  const double seconds = options.timeout_s.value_or(default_case_timeout_s(backend));
  return milliseconds(static_cast<int64_t>(seconds * 1000));
}

// On the simulator a hang spins, so a case that has used far more CPU time than a right kernel needs is
// stopped then, not at the wall-clock timeout: a floor for small cases, plus time in proportion to the
// case's work (its flops, or else the bytes a perfect kernel moves). CPU time, unlike the wall clock,
// does not grow with the machine's load. --timeout turns this off.
std::map<int, milliseconds> sim_cpu_budgets(const PuzzleSpec& puzzle, const std::vector<int>& cases) {
  constexpr double kFloorSeconds = 3;
  // Generous on purpose: a right but naive kernel may simulate ten times slower than the solutions (a
  // tile kernel with a barrier per row took 16 s on 100000x32 = 25.6 MB on an idle 2-core CI machine),
  // and a budget must never fail a right kernel. A hang still stops within seconds on the small cases,
  // which run first; no budget passes the 60 s a case had before budgets scaled.
  constexpr double kCeilingSeconds = 60;
  constexpr double kSecondsPerFlop = 1.0 / 2e6, kSecondsPerByte = 1.0 / 2e5;  // see docs/simulator.md
  std::map<int, milliseconds> budgets;
  for (int index : cases) {
    const Params& params = puzzle.cases[index].params;
    const double work =
        puzzle.flops ? puzzle.flops(params) * kSecondsPerFlop : puzzle.min_bytes(params) * kSecondsPerByte;
    budgets[index] =
        milliseconds(static_cast<int64_t>(std::min(kFloorSeconds + work, kCeilingSeconds) * 1000));
  }
  return budgets;
}

void require_known_cases(const PuzzleSpec& puzzle, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    const bool known = std::any_of(puzzle.cases.begin(), puzzle.cases.end(),
                                   [&](const TestCase& t) { return t.name == name; });
    if (known) continue;
    std::string all;
    for (const auto& t : puzzle.cases) all += " " + t.name;
    throw UsageError("puzzle " + std::to_string(puzzle.id) + " has no case \"" + name +
                     "\"; its cases are:" + all);
  }
}

// The cases named by --case (all without one), of which only the timed ones with --timed.
bool wanted(const TestCase& test, const CheckOptions& options) {
  const auto& names = options.cases;
  return (names.empty() || std::find(names.begin(), names.end(), test.name) != names.end()) &&
         (!options.timed || test.perf);
}

SourceKind source_kind(const CheckOptions& options) {
  if (options.file) return SourceKind::file;
  return options.solution ? SourceKind::solution : SourceKind::learner;
}

// GPU: the passing perf cases were timed (bench mode); put the copy bandwidth and the reference solution's
// figure beside them. Simulator: no timing, but how much the kernels moved.
void add_performance(const BuildConfig& config, const CheckOptions& options, const CheckReport& report,
                     PuzzleReport& puzzle) {
  const PuzzleSpec& spec = *puzzle.spec;
  const auto timed = [&](const CaseReport& c) {
    return spec.cases[c.index].perf && c.result.status == CaseStatus::passed;
  };
  std::vector<int> timed_cases;
  for (CaseReport& c : puzzle.cases) {
    if (timed(c)) {
      timed_cases.push_back(c.index);
    } else {  // the child times a perf case whatever its values; a wrong kernel's speed means nothing
      c.result.record.time_ms = -1;
      c.result.gbps.reset();
      c.result.tflops.reset();
    }
  }
  const bool gpu = *report.backend == Backend::gpu;
  const auto reference = gpu ? solution_times(config, spec, timed_cases, report.device,
                                              case_timeout(options, Backend::gpu), options.deadline)
                             : std::map<int, double>{};
  for (CaseReport& c : puzzle.cases) {
    if (!timed(c)) continue;
    auto& notes = c.result.notes;
    if (!gpu) {
      notes.push_back("timing needs a GPU");
      if (auto note = minimum_traffic_note(spec, spec.cases[c.index], c.result.record.sim))
        notes.push_back(*note);
    } else if (c.result.record.time_ms <= 0) {
      notes.push_back("no timing: the child did not time this case");
    } else {
      const auto solution = reference.find(c.index);
      add_comparisons(spec, report.device,
                      solution == reference.end() ? std::nullopt : std::optional(solution->second), c);
    }
  }
}

// The timed cases a simulator check estimates: those asked for (a GPU times them, the simulator cannot
// run them whole).
std::vector<int> cases_to_estimate(const CheckOptions& options, const PuzzleSpec& spec, Backend backend) {
  std::vector<int> timed;
  if (backend != Backend::sim || !options.estimate_speed) return timed;
  for (size_t i = 0; i < spec.cases.size(); ++i) {
    if (spec.cases[i].perf && !spec.cases[i].sim && wanted(spec.cases[i], options))
      timed.push_back(static_cast<int>(i));
  }
  return timed;
}

// The simulator's counts for the timed cases' speed estimates: those of a file estimated before come
// from the cache; the others from an estimate run of the child, started as soon as it is built, beside
// the cases (on two cores they leave one idle much of the time). A failed case stops it: a wrong
// kernel's speed means nothing.
class EstimateBesideCases {
 public:
  EstimateBesideCases(const BuildConfig& config, const CheckOptions& options, const PuzzleSpec& spec,
                      const PuzzleSource& source, const std::filesystem::path& child,
                      const std::vector<int>& timed)
      : request_{.indices = timed,
                 .timeout = case_timeout(options, Backend::sim),
                 .deadline = options.deadline},
        stored_(stored_counts(config, spec, source, request_)) {
    if (stored_.missing.empty()) return;
    CountsRequest missing = request_;
    missing.indices = stored_.missing;
    missing.stop = stop_.get_token();
    made_ = std::async(std::launch::async, [child, &spec, missing] {
      work_behind_the_compiler();  // the run, a child of this thread, takes what the cases leave
      return estimate_counts(child, spec, {}, missing);
    });
  }
  EstimateBesideCases(const EstimateBesideCases&) = delete;
  EstimateBesideCases& operator=(const EstimateBesideCases&) = delete;
  ~EstimateBesideCases() { stop_.request_stop(); }  // then made_'s destructor waits for the stopped run

  const CountsRequest& request() const { return request_; }
  void stop() { stop_.request_stop(); }
  // The counts of every timed case, the new ones stored with `resources`; `problems`: why a case has none.
  std::map<int, CaseCounts> counts(const BuildConfig& config, const PuzzleSpec& spec,
                                   const PuzzleSource& source, const perf::KernelResources& resources,
                                   std::map<int, std::string>& problems) {
    std::map<int, CaseCounts> counts = std::move(stored_.cases);
    if (!made_.valid()) return counts;
    EstimateCounts made = made_.get();
    for (auto& [index, case_counts] : made.cases) case_counts.resources = resources;
    store_counts(config, spec, source, false, made.cases);
    counts.merge(made.cases);
    problems = std::move(made.problems);
    return counts;
  }
  bool running() const { return made_.valid(); }

 private:
  CountsRequest request_;
  StoredCounts stored_;
  std::stop_source stop_;
  std::future<EstimateCounts> made_;
};

// Simulator: the timed cases' estimated times beside the solution's, once every case run has passed, with
// the kernels' registers and stack frames that nvcc reported meanwhile (`resources`).
void add_estimates(const BuildConfig& config, const CheckOptions& options, const PuzzleSource& source,
                   std::future<perf::KernelResources>& resources, EstimateBesideCases& estimate,
                   PuzzleReport& puzzle) {
  const bool all_passed = std::all_of(puzzle.cases.begin(), puzzle.cases.end(), [](const CaseReport& c) {
    return c.result.status == CaseStatus::passed || c.result.status == CaseStatus::skipped;
  });
  if (!all_passed) return estimate.stop();
  const auto started = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  const PuzzleSpec& spec = *puzzle.spec;
  const perf::GpuSpec& gpu = estimate_gpu(options.gpu);
  const bool counted_now = estimate.running();
  std::map<int, std::string> problems;
  // nvcc has had the build, the cases and the estimate run to report, at a lower priority than them.
  const perf::KernelResources nvcc =
      counted_now && resources.valid() ? resources.get() : perf::KernelResources{};
  const std::map<int, CaseCounts> mine = estimate.counts(config, spec, source, nvcc, problems);
  const double waited = seconds();
  const std::map<int, CaseCounts> solution = solution_counts(config, spec, estimate.request());
  if (std::getenv("PUZZLE_TIMING")) {
    std::fprintf(stderr,
                 "[timing] speed estimate: waited %.2f s for its counts (%s), the solution's %.2f s\n",
                 waited, counted_now ? "counted beside the cases" : "stored", seconds() - waited);
  }
  for (CaseReport& c : puzzle.cases) {
    const auto counts = mine.find(c.index);
    if (counts == mine.end()) {
      if (const auto problem = problems.find(c.index); problem != problems.end())
        c.result.notes.push_back("no speed estimate: " + problem->second);
      continue;
    }
    const auto theirs = solution.find(c.index);
    c.estimate = speed_estimate(spec, spec.cases[c.index].params, gpu, counts->second,
                                theirs == solution.end() ? std::nullopt : std::optional(theirs->second));
  }
}

std::vector<int> cases_to_run(const CheckOptions& options, const PuzzleSpec& spec, Backend backend) {
  std::vector<int> to_run;
  for (size_t i = 0; i < spec.cases.size(); ++i) {
    if (!wanted(spec.cases[i], options)) continue;
    if (backend == Backend::sim && !spec.cases[i].sim) continue;
    to_run.push_back(static_cast<int>(i));
  }
  return to_run;
}

// The cases' inputs, drawn from the start in the parent (for the child, in `work`), and their judging.
struct CaseWork {
  std::vector<int> to_run;
  TempDir work{"puzzle-check-"};
  DrawnInputs inputs;
  InputDrawer drawer;
  ConcurrentJudge judge;

  CaseWork(const CheckOptions& options, const PuzzleSpec& spec, const CheckReport& report,
           std::vector<int> cases)
      : to_run(std::move(cases)),
        inputs(spec),
        drawer(spec, report.seed, to_run, keep(work, options.verbose), inputs),
        judge(spec, report.seed, to_run, work.path(), inputs) {}

  // After the child: every case's judgement, by case index; inputs still to draw are for cases that never
  // ran, so the drawing stops.
  std::map<int, CaseReport> finish(const ChildRuns& runs) {
    std::map<int, CaseReport> judged = judge.finish(runs);
    drawer.finish();
    return judged;
  }

  static std::filesystem::path keep(TempDir& dir, bool verbose) {
    if (verbose) dir.keep();
    return dir.path();
  }
};

// "running 15 cases (...)": what the console shows as the cases start.
std::string running_line(const CheckOptions& options, Backend backend, const CaseWork& cases) {
  const size_t count = cases.to_run.size();
  const std::string limit =
      backend == Backend::sim && !options.timeout_s
          ? "a hang is stopped after a few seconds of CPU time"
          : "timeout " + format_seconds(case_timeout(options, backend).count() / 1000.0) + " per case";
  return "running " + std::to_string(count) + " case" + (count == 1 ? "" : "s") + " (" + limit +
         (options.verbose ? ", work dir " + cases.work.path().string() : "") + ")";
}

// `cross_check`: the simulator's run of the small cases (a GPU check only), waited for here. `stop`: the
// file turned out not to compile for a GPU; the runs stop.
void run_cases(const CheckOptions& options, const CheckReport& report, const std::filesystem::path& child,
               PuzzleReport& puzzle, std::optional<std::future<SimCrossCheck>>& cross_check, CaseWork& cases,
               std::stop_token stop) {
  const PuzzleSpec& spec = *puzzle.spec;
  const Backend backend = *report.backend;
  const std::vector<int>& to_run = cases.to_run;
  const TempDir& work = cases.work;
  ConcurrentJudge& judge = cases.judge;
  const milliseconds timeout = case_timeout(options, backend);
  const auto cpu_budgets = backend == Backend::sim && !options.timeout_s ? sim_cpu_budgets(spec, to_run)
                                                                         : std::map<int, milliseconds>{};
  ChildRuns runs =
      run_child({.child = child,
                 .work_dir = work.path(),
                 // bench: the child also times the perf cases (a GPU only)
                 .job = {.puzzle = spec.id,
                         .seed = report.seed,
                         .mode = backend == Backend::gpu ? "bench" : "check",
                         .cases = to_run,
                         .backend = to_string(backend),
                         .inputs_from_parent = true},
                 .case_timeout = timeout,
                 .case_cpu_budgets = cpu_budgets,
                 .deadline = options.deadline,
                 .stop = stop,
                 .case_done = [&judge](int index, const CaseRun& run) { judge.case_done(index, run); }});
  if (cross_check) {
    const auto waited_from = std::chrono::steady_clock::now();
    add_cross_check(cross_check->get(), runs);
    if (std::getenv("PUZZLE_TIMING")) {
      std::fprintf(stderr,
                   "[timing] waited %.2f s for the simulator's run of the small cases after the child\n",
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - waited_from).count());
    }
  }
  puzzle.program_stdout = runs.program_stdout;
  puzzle.program_stderr = runs.program_stderr;
  std::map<int, CaseReport> judged = cases.finish(runs);
  for (size_t i = 0; i < spec.cases.size(); ++i) {
    if (!wanted(spec.cases[i], options)) continue;
    if (const auto it = judged.find(static_cast<int>(i)); it != judged.end()) {
      puzzle.cases.push_back(std::move(it->second));
    } else {
      puzzle.cases.push_back(skipped_case(spec, static_cast<int>(i), "needs a GPU", true));
    }
  }
}

void finish(PuzzleReport& puzzle) {
  fail_all_if_refused(puzzle.cases);
  puzzle.score = puzzle.max_score = 0;
  for (const auto& c : puzzle.cases) {
    puzzle.score += c.result.points;
    puzzle.max_score += c.result.max_points;
  }
  puzzle.status = puzzle.build.ok ? overall_status(puzzle) : PuzzleStatus::compile_error;
}

}  // namespace

double default_case_timeout_s(Backend backend) {
  return backend == Backend::gpu ? 10.0 : 60.0;
}

std::string utc_now() {
  return time_now("%Y-%m-%dT%H:%M:%SZ", TimeZone::utc);
}

PuzzleStatus overall_status(const PuzzleReport& puzzle) {
  const auto any = [&](CaseStatus s) {
    return std::any_of(puzzle.cases.begin(), puzzle.cases.end(),
                       [&](const CaseReport& c) { return c.result.status == s; });
  };
  if (any(CaseStatus::timeout)) return PuzzleStatus::timeout;
  if (any(CaseStatus::crashed)) return PuzzleStatus::crashed;
  if (any(CaseStatus::failed)) return PuzzleStatus::failed;
  return PuzzleStatus::passed;
}

int exit_code_for(PuzzleStatus status) {
  switch (status) {
    case PuzzleStatus::passed:
      return kExitPassed;
    case PuzzleStatus::compile_error:
      return kExitUsage;
    default:
      return kExitKernelFailed;
  }
}

CheckReport run_check(const CheckOptions& options, const std::string& command_text, const BuildConfig& config,
                      const CheckObserver& observer) {
  CheckReport report{
      .command = command_text, .created = utc_now(), .seed = options.seed.value_or(random_seed())};
  report_errors(report, [&] {
    const PuzzleSpec& spec = lookup_puzzle(options.puzzle);
    require_known_cases(spec, options.cases);
    const PuzzleSource source = load_source(spec, source_kind(options), config.source_dir,
                                            options.file.value_or(std::filesystem::path{}));
    // A file that uses the APIs a forgery needs is refused before it is built (docs/grading.md).
    BuildInfo apis = options.api_check ? check_apis(source.text) : BuildInfo{.ok = true};
    // nvcc, the longest step, starts while the probe looks for the GPU, wherever one is expected.
    std::future<ChildBuild> early_gpu_build;
    if (apis.ok && gpu_expected(options.backend, config)) {
      early_gpu_build =
          std::async(std::launch::async, [&] { return build_child(config, spec, source, Backend::gpu); });
    }
    const BackendChoice choice = choose_backend(options.backend, config);
    report.backend = choice.backend;
    report.backend_reason = choice.reason;
    report.device = choice.device;
    PuzzleReport& puzzle =
        report.puzzles.emplace_back(PuzzleReport{.spec = &spec, .file = source.file, .source = source.kind});
    if (observer.started) observer.started(report);

    // Meanwhile the parent draws the inputs: the child finds them ready when it starts.
    std::optional<CaseWork> cases;
    const std::vector<int> to_estimate = cases_to_estimate(options, spec, choice.backend);
    if (apis.ok) {
      std::vector<int> to_run = cases_to_run(options, spec, choice.backend);
      if (to_run.empty() && to_estimate.empty())
        throw EnvironmentError("the cases asked for need a GPU; there is none to run them on");
      if (!to_run.empty()) cases.emplace(options, spec, report, std::move(to_run));
    }
    // On a GPU the simulator checks the small cases for barrier divergence and races, meanwhile.
    std::optional<std::future<SimCrossCheck>> cross_check;
    if (apis.ok && choice.backend == Backend::gpu) {
      cross_check = start_sim_cross_check(config, spec, source,
                                          cross_check_cases(spec, cases_to_run(options, spec, Backend::gpu)),
                                          report.seed, options.deadline);
    }
    ChildBuild build =
        !apis.ok ? ChildBuild{.info = apis}
        : early_gpu_build.valid() && choice.backend == Backend::gpu
            ? early_gpu_build.get()
            : build_child(config, spec, source, choice.backend, CudaRules::beside_the_run,
                          to_estimate.empty() ? FrontEndReport::rules : FrontEndReport::rules_and_registers);
    if (apis.ok) build.info.log = apis.log + build.info.log;
    // The scan's rules on the compiled code too, where a macro cannot paste a name out of sight.
    if (options.api_check && build.info.ok) {
      BuildInfo symbols = check_object_symbols(build.child.parent_path() / "learner.o", refused_api_symbol);
      if (!symbols.ok) {
        build.info.ok = false;
        build.info.message = std::move(symbols.message);
      }
    }
    puzzle.build = build.info;
    // A simulator child runs before CUDA's front end has judged the file (nvcc takes longer than g++):
    // the build line waits for the verdict, and a file it rejects stops the cases, whose results then
    // mean nothing.
    std::stop_source rejected;
    const std::shared_future<BuildInfo> verdict = std::async(std::launch::async, [&] {
      BuildInfo info = settle_cuda_rules(config, spec, source, build);
      if (!info.ok && build.info.ok) {  // CUDA's front end rejects what g++ built
        info.log = apis.log + info.log;
        rejected.request_stop();
      }
      if (observer.built) {  // not `puzzle`, whose cases the run fills meanwhile
        observer.built(
            PuzzleReport{.spec = &spec, .file = source.file, .source = source.kind, .build = info});
      }
      if (info.ok && cases && observer.running)
        observer.running(running_line(options, choice.backend, *cases));
      return info;
    });
    if (!build.info.ok) verdict.wait();  // no child: the build line first
    // The speed estimate needs the kernels' registers and stack frames: the build's nvcc front end
    // reported them; else nvcc compiles the file for them beside the cases, unless a case fails first
    // (then it is stopped: no estimate is shown).
    std::stop_source resources_wanted;
    std::future<perf::KernelResources> resources;
    if (build.info.ok && !to_estimate.empty()) {
      resources = std::async(std::launch::async, [&, stop = resources_wanted.get_token()] {
        // A front end's report of them is stored with its verdict; a rejected file has no estimate.
        if (!verdict.get().ok) return perf::KernelResources{};
        work_behind_the_compiler();  // nvcc, started from this thread, yields to the cases
        return kernel_resources(config, spec, source, stop);
      });
    }
    if (build.info.ok) {
      std::optional<EstimateBesideCases> estimate;
      if (!to_estimate.empty()) estimate.emplace(config, options, spec, source, build.child, to_estimate);
      if (cases) run_cases(options, report, build.child, puzzle, cross_check, *cases, rejected.get_token());
      puzzle.build = verdict.get();
      if (!puzzle.build.ok) {
        puzzle.cases.clear();
        puzzle.program_stdout.clear();
        puzzle.program_stderr.clear();
      } else {
        if (!cases) {  // only timed cases asked for, on the simulator: estimated, not judged
          for (int index : to_estimate)
            puzzle.cases.push_back(skipped_case(spec, index, "needs a GPU", true));
        }
        add_performance(config, options, report, puzzle);
        if (estimate) add_estimates(config, options, source, resources, *estimate, puzzle);
      }
    } else {
      puzzle.build = verdict.get();
    }
    resources_wanted.request_stop();  // used by now, if at all
    finish(puzzle);
    report.exit_code = exit_code_for(puzzle.status);
  });
  return report;
}

}  // namespace puzzle::cli
