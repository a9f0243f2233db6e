#include "commands/commands.hpp"
#include "compile/child_build.hpp"
#include "learner/progress_store.hpp"
#include "pipelines/check_pipeline.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "report/check_console.hpp"
#include "report/check_json.hpp"
#include "run/sanitize_check.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {
namespace {

// --sanitize: the passing check's cases again, under compute-sanitizer; its errors fail the check.
std::vector<SanitizerRun> sanitize(const std::filesystem::path& sanitizer, const BuildConfig& config,
                                   const CheckOptions& options, Style style, std::ostream& out,
                                   CheckReport& report) {
  const PuzzleReport& puzzle = report.puzzles.front();
  const PuzzleSource source = load_source(*puzzle.spec, puzzle.source, config.source_dir, puzzle.file);
  const ChildBuild build = build_child(config, *puzzle.spec, source, Backend::gpu);  // the check's, cached
  const auto timeout = std::chrono::milliseconds(
      static_cast<int64_t>(options.timeout_s.value_or(default_case_timeout_s(Backend::gpu)) * 1000));
  out << style("running the cases under compute-sanitizer (memcheck, racecheck, synccheck) ...", Tone::dim)
      << "\n";
  out.flush();
  auto runs = run_sanitizers(sanitizer, build.child, *puzzle.spec, report.seed, timeout);
  print_sanitizer_runs(runs, style, out);
  apply_sanitizer_verdict(runs, report);
  return runs;
}

}  // namespace

int check_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err) {
  CheckOptions options = command.check;
  CheckReport report{.command = command.text, .created = utc_now()};
  std::filesystem::path sanitizer;
  if (options.sanitize) {  // before the check: say at once when there is no GPU to sanitize on
    report_errors(report, [&] {
      sanitizer = require_sanitizer(config, options.backend);
      options.backend = BackendRequest::gpu;
    });
  }
  ConsoleReport console(out, style, options.verbose, std::filesystem::current_path());
  const CheckObserver observer{
      .started = [&](const CheckReport& r) { console.header(r); },
      .built = [&](const PuzzleReport& p) { console.build(p); },
      .running = [&](const std::string& what) { console.running(what); },
  };
  if (report.error.empty()) report = run_check(options, command.text, config, observer);
  if (report.error.empty()) {
    console.results(report);
  } else {
    err << style("error:", Tone::bad) << " " << report.error << "\n";
  }

  std::vector<SanitizerRun> sanitized;
  if (options.sanitize && report.error.empty() && report.puzzles.front().build.ok) {
    sanitized = sanitize(sanitizer, config, options, style, out, report);
  }

  if (options.json) {
    try {
      nlohmann::json json = report_to_json(report, config.version);
      if (options.sanitize) json["sanitizer"] = sanitizer_json(sanitized);
      write_json_file(*options.json, json);
    } catch (const std::exception& e) {
      err << style("error:", Tone::bad) << " cannot write the JSON report: " << e.what() << "\n";
      if (report.exit_code == kExitPassed) report.exit_code = kExitEnvironment;
    }
  }

  // Progress is the learner's own file in puzzles/: not the reference solution, and not a file named
  // with --file (a grader's student copy, or the test suite's wrong kernels).
  if (report.error.empty() && !report.puzzles.empty() &&
      report.puzzles.front().source == SourceKind::learner) {
    try {
      ProgressStore progress(progress_file(config.source_dir));
      progress.record_check(report.puzzles.front(), report.created);
      progress.save();
    } catch (const std::exception& e) {
      err << "warning: progress not saved: " << e.what() << "\n";
    }
  }
  return report.exit_code;
}

}  // namespace puzzle::cli
