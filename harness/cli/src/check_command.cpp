#include "check_pipeline.hpp"
#include "commands.hpp"
#include "console_report.hpp"
#include "errors.hpp"
#include "json_report.hpp"
#include "progress_store.hpp"

namespace puzzle::cli {

int check_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err) {
  const CheckOptions& options = command.check;
  ConsoleReport console(out, style, options.verbose, std::filesystem::current_path());
  const CheckObserver observer{
      .started = [&](const CheckReport& r) { console.header(r); },
      .built = [&](const PuzzleReport& p) { console.build(p); },
      .running = [&](const std::string& what) { console.running(what); },
  };
  CheckReport report = run_check(options, command.text, config, observer);
  if (report.error.empty()) {
    console.results(report);
  } else {
    err << style("error:", Tone::bad) << " " << report.error << "\n";
  }

  if (options.json) {
    try {
      write_json_report(*options.json, report, config.version);
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
