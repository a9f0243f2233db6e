#include "pipelines/grade_pipeline.hpp"

#include <chrono>

#include "judge/case_judging.hpp"
#include "judge/grade_performance.hpp"
#include "judge/speed_estimates.hpp"
#include "model/child_run.hpp"
#include "pipelines/check_pipeline.hpp"
#include "pipelines/course_points.hpp"
#include "pipelines/puzzle_selection.hpp"
#include "pipelines/submission_files.hpp"
#include "report/text_format.hpp"
#include "run/device_probe.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr auto kMinimumPuzzle = std::chrono::seconds(2);  // less budget than this left: not started

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool counted_on(const TestCase& test, Backend backend) {
  return backend == Backend::gpu || test.sim;
}

// A puzzle's every counted case as not run, so that its maximum score is the same whatever happened.
void fill_unrun_cases(PuzzleReport& puzzle, Backend backend, const std::string& message) {
  const PuzzleSpec& spec = *puzzle.spec;
  puzzle.cases.clear();
  puzzle.score = puzzle.max_score = 0;
  for (size_t i = 0; i < spec.cases.size(); ++i) {
    if (!counted_on(spec.cases[i], backend)) continue;
    CaseReport c = skipped_case(spec, static_cast<int>(i), message, false);
    c.result.max_points = spec.cases[i].points;
    puzzle.max_score += c.result.max_points;
    puzzle.cases.push_back(std::move(c));
  }
}

void mark_not_graded(GradedPuzzle& p, GradeState state, const std::string& reason, Backend backend) {
  p.state = state;
  p.reason = reason;
  fill_unrun_cases(p.report, backend, "not run: " + reason);
}

// The cases the budget's deadline stopped or left were not proven to hang: say what really stopped them.
// Returns whether the deadline came before any case started.
bool blame_budget(PuzzleReport& puzzle, double budget_s) {
  const std::string why = "the grading time budget (" + format_seconds(budget_s) + ") ran out";
  bool any_left = false, any_started = false;
  for (CaseReport& c : puzzle.cases) {
    CaseResult& r = c.result;
    if (r.status == CaseStatus::timeout && r.message == kStoppedAtDeadline) {
      r.message = "stopped: " + why + " during this case";
      r.diagnoses = {
          {"time_budget", "grading stopped here because " + why + "; this case did not fail by itself"}};
    } else if (r.status == CaseStatus::skipped && r.message == kNotRunAtDeadline) {
      r.message = "not run: " + why;
      any_left = true;
      continue;
    }
    any_started = any_started || !c.needs_gpu;
  }
  // A puzzle cut short between two cases has no failed case, yet it did not pass: not all of it ran.
  if (any_left && puzzle.status == PuzzleStatus::passed) puzzle.status = PuzzleStatus::timeout;
  return any_left && !any_started;
}

class Grader {
 public:
  Grader(const GradeOptions& options, const BuildConfig& config, const std::string& command_text,
         GradeReport& report, const GradeObserver& observer)
      : options_(options),
        config_(config),
        command_text_(command_text),
        report_(report),
        observer_(observer) {}

  // Returns false when grading must stop: the environment failed (no compiler, say).
  bool grade(size_t index) {
    GradedPuzzle& p = report_.puzzles[index];
    const Backend backend = *report_.run.backend;
    if (options_.time_budget_s && *deadline_ - Clock::now() < kMinimumPuzzle) {
      mark_not_graded(
          p, GradeState::out_of_time,
          "the time budget of " + format_seconds(*options_.time_budget_s) + " ran out before this puzzle",
          backend);
      p.performance = speed_part(p, options_.perf_points);
      return true;  // the puzzles after it are marked the same way, each in its turn
    }
    if (observer_.puzzle_started) observer_.puzzle_started(report_, index);
    const auto puzzle_start = Clock::now();
    const bool go_on = run(p, backend);
    p.performance = speed_part(p, options_.perf_points);
    p.seconds = seconds_since(puzzle_start);
    return go_on;
  }

  void start() {
    start_ = Clock::now();
    if (options_.time_budget_s) {
      deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(*options_.time_budget_s));
    }
  }
  double elapsed() const { return seconds_since(start_); }

 private:
  bool run(GradedPuzzle& p, Backend backend) {
    const PuzzleSpec& spec = *p.report.spec;
    CheckOptions check{.puzzle = std::to_string(spec.id),
                       .backend = backend == Backend::gpu ? BackendRequest::gpu : BackendRequest::sim,
                       .seed = report_.run.seed,
                       .timeout_s = options_.timeout_s,
                       .deadline = deadline_,
                       .gpu = options_.gpu,
                       .estimate_speed = options_.perf_points > 0};
    if (report_.submission) {
      const SubmittedFile file = find_submitted_file(*report_.submission, spec);
      if (!file.graded) {
        mark_not_graded(p, GradeState::missing, "the submission has no file named " + spec.file, backend);
        return true;
      }
      check.file = *file.graded;
      p.report.file = *file.graded;
      p.file_note = file_note(file, spec, *report_.submission);
    }
    CheckReport result = run_check(check, command_text_, config_);
    if (result.exit_code == kExitEnvironment && !result.error.empty()) {
      report_.run.error = result.error;
      report_.run.exit_code = kExitEnvironment;
      mark_not_graded(p, GradeState::pending, "grading stopped: " + result.error, backend);
      return false;
    }
    if (!result.error.empty()) {  // the file is there but cannot be read
      mark_not_graded(p, GradeState::missing, result.error, backend);
      return true;
    }
    p.state = GradeState::graded;
    p.reason.clear();
    p.report = std::move(result.puzzles.front());
    if (p.report.status == PuzzleStatus::compile_error) {
      fill_unrun_cases(p.report, backend, "not run: the file did not build");
    }
    if (options_.time_budget_s && blame_budget(p.report, *options_.time_budget_s)) {
      mark_not_graded(p, GradeState::out_of_time,
                      "the time budget of " + format_seconds(*options_.time_budget_s) +
                          " ran out while this puzzle was being built",
                      backend);
    }
    return true;
  }

  const GradeOptions& options_;
  const BuildConfig& config_;
  const std::string& command_text_;
  GradeReport& report_;
  const GradeObserver& observer_;
  Clock::time_point start_ = Clock::now();
  std::optional<Clock::time_point> deadline_;  // start_ + the time budget
};

// The puzzles to grade, with the course's points for each where a course gives them.
std::vector<CoursePuzzle> graded_puzzles(const GradeOptions& options) {
  if (options.course && !options.weights.empty())
    throw UsageError("--course and --weights both give the puzzles' points; give one");
  if ((options.course || !options.weights.empty()) && !options.puzzles.empty())
    throw UsageError("--puzzles and " + std::string(options.course ? "--course" : "--weights") +
                     " both choose the puzzles; give one");
  if (options.course) return read_course_file(*options.course);
  if (!options.weights.empty()) return parse_weights(options.weights);
  std::vector<CoursePuzzle> puzzles;
  for (const PuzzleSpec* spec : select_puzzles(options.puzzles)) puzzles.push_back({.spec = spec});
  return puzzles;
}

// One line for a submission in which no selected puzzle has a file: what was looked for, what was there.
std::string nothing_to_grade(const GradeReport& report) {
  std::string text = "nothing to grade: " + report.submission->string() + " has no puzzle file (" +
                     report.puzzles.front().report.spec->file + (report.puzzles.size() > 1 ? ", ..." : "") +
                     ")";
  const auto others = unmatched_cuda_files(*report.submission);
  if (others.empty()) return text + " and no .cu file at all";
  text += "; its .cu files match no puzzle:";
  for (size_t i = 0; i < others.size() && i < 3; ++i) text += " " + others[i].string();
  return text + (others.size() > 3 ? " ..." : "");
}

void prepare(GradeReport& report, const GradeOptions& options, const BuildConfig& config,
             const SecretSeedSources& secret) {
  const std::vector<CoursePuzzle> selected = graded_puzzles(options);
  const GradeSeed seed = resolve_grade_seed(options.seed, secret);
  report.run.seed = seed.value;
  report.seed_source = seed.source;
  if (options.submission) report.submission = fs::absolute(*options.submission);
  const BackendChoice choice = choose_backend(options.backend, config);
  report.run.backend = choice.backend;
  report.run.backend_reason = choice.reason;
  report.run.device = choice.device;
  for (const auto& [spec, points] : selected) {
    GradedPuzzle p;
    p.report.spec = spec;
    if (options.course || !options.weights.empty()) p.weight = points;
    p.report.source = options.submission ? SourceKind::file : SourceKind::learner;
    p.report.file =
        options.submission ? *report.submission / spec->file : config.source_dir / stub_path(*spec);
    mark_not_graded(p, GradeState::pending, "grading did not get to this puzzle", choice.backend);
    p.performance = speed_part(p, options.perf_points);
    report.puzzles.push_back(std::move(p));
  }
  if (options.perf_points > 0 && choice.backend != Backend::gpu) {
    report.notes.push_back("--perf-points: speed is estimated on the simulator for an " +
                           estimate_gpu(options.gpu).name +
                           " from what it counts, not timed (docs/simulator.md, \"Estimated speed\")");
  }
}

}  // namespace

GradeReport run_grade(const GradeOptions& options, const std::string& command_text, const BuildConfig& config,
                      const SecretSeedSources& secret, const GradeObserver& observer) {
  GradeReport report{.run = {.command = command_text, .created = utc_now()},
                     .time_budget_s = options.time_budget_s};
  Grader grader(options, config, command_text, report, observer);
  try {
    prepare(report, options, config, secret);
    grader.start();
    if (observer.started) observer.started(report);
    bool go_on = true;
    for (size_t i = 0; i < report.puzzles.size() && go_on; ++i) {
      go_on = grader.grade(i);
      report.seconds = grader.elapsed();
      if (observer.puzzle_done) observer.puzzle_done(report, i);
    }
    if (report.found_no_file()) {
      report.run.error = nothing_to_grade(report);
      report.run.exit_code = kExitUsage;
    }
  } catch (const UsageError& e) {
    report.run.error = e.what();
    report.run.exit_code = kExitUsage;
  } catch (const EnvironmentError& e) {
    report.run.error = e.what();
    report.run.exit_code = kExitEnvironment;
  } catch (const std::exception& e) {
    report.run.error = std::string("internal error: ") + e.what();
    report.run.exit_code = kExitEnvironment;
  }
  report.seconds = grader.elapsed();
  report.complete = true;
  return report;
}

}  // namespace puzzle::cli
