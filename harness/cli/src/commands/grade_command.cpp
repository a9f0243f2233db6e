#include <cstdlib>

#include "commands/commands.hpp"
#include "pipelines/check_pipeline.hpp"
#include "pipelines/class_grading.hpp"
#include "pipelines/grade_pipeline.hpp"
#include "report/grade_class_console.hpp"
#include "report/grade_class_files.hpp"
#include "report/grade_console.hpp"
#include "report/grade_files.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {
namespace {

GradeReportFiles report_files(const GradeOptions& o) {
  return {.json = o.json, .gradescope = o.gradescope, .junit = o.junit};
}

void list_written(const GradeReportFiles& files, std::ostream& out) {
  if (files.gradescope) out << "wrote " << files.gradescope->string() << " (Gradescope)\n";
  if (files.json) out << "wrote " << files.json->string() << " (JSON)\n";
  if (files.junit) out << "wrote " << files.junit->string() << " (JUnit XML)\n";
}

// `grade --class DIR` or `--roster FILE`: every student graded, their reports and the gradebook written.
int grade_class_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                        std::ostream& err) {
  const GradeOptions& options = command.grade;
  const SecretSeedSources secret = secret_seed_sources_from_environment(options.secret_seed_file);
  unsetenv(kSecretSeedVariable);  // the learners' code runs in children of this process
  unsetenv(kSecretSeedFileVariable);
  ClassConsole console(out, style);
  const ClassObserver observer{
      .started =
          [&](const ClassReport& r, size_t jobs) {
            console.header(r, options.class_dir ? *options.class_dir : *options.roster, jobs);
          },
      .student_done = [&](const ClassReport& r, size_t index,
                          size_t done) { console.student_done(r, index, done); },
  };
  const ClassReport report = grade_class(options, command.text, config, secret, observer);
  if (!report.error.empty()) err << style("error:", Tone::bad) << " " << report.error << "\n";
  if (report.students.empty()) return report.exit_code;
  const auto failures = write_class_reports(options.out, report, config.version);
  for (const auto& failure : failures)
    err << style("error:", Tone::bad) << " cannot write " << failure << "\n";
  console.written(report, options.out);
  if (!report.error.empty()) return report.exit_code;
  return failures.empty() ? kExitPassed : kExitEnvironment;
}

}  // namespace

int grade_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err) {
  const GradeOptions& options = command.grade;
  if (options.class_dir || options.roster) return grade_class_command(command, config, style, out, err);
  const GradeReportFiles files = report_files(options);
  const SecretSeedSources secret = secret_seed_sources_from_environment(options.secret_seed_file);
  // The learner's code runs in children of this process: it must not inherit the secret.
  unsetenv(kSecretSeedVariable);
  unsetenv(kSecretSeedFileVariable);

  GradeConsole console(out, style);
  const auto write_interim = [&](const GradeReport& report) {
    write_grade_reports(files, report, config.version);  // failures are reported by the final write
  };
  const GradeObserver observer{
      .started =
          [&](const GradeReport& r) {
            console.header(r);
            write_interim(r);
          },
      .puzzle_started = [&](const GradeReport& r, size_t i) { console.puzzle_started(r, i); },
      .puzzle_done =
          [&](const GradeReport& r, size_t i) {
            console.puzzle_done(r, i);
            write_interim(r);
          },
  };
  GradeReport report = run_grade(options, command.text, config, secret, observer);
  if (report.run.error.empty()) {
    console.total(report);
  } else {
    err << style("error:", Tone::bad) << " " << report.run.error << "\n";
  }
  const auto failures = write_grade_reports(files, report, config.version);
  for (const auto& failure : failures)
    err << style("error:", Tone::bad) << " cannot write " << failure << "\n";
  if (!failures.empty()) return kExitEnvironment;
  list_written(files, out);
  // A grade that stopped, or found nothing to grade, fails, also where its reports say why: a CI job or
  // script must not take it for a grade of 0 out of 0.
  return report.run.error.empty() ? kExitPassed : report.run.exit_code;
}

int grade_usage_error(const std::vector<std::string>& argv, const std::string& message,
                      const BuildConfig& config, std::ostream& err) {
  err << message.substr(0, message.find('\n')) << "\n";  // one line: CLI11 adds "Run with --help ..."
  const GradeReportFiles files = report_files_in(argv);
  if (!files.any()) return kExitUsage;
  std::string text = "puzzle";
  for (size_t i = 1; i < argv.size(); ++i) text += " " + argv[i];
  GradeReport report{.run = {.command = text, .created = utc_now()}, .complete = true};
  report.run.exit_code = kExitUsage;
  report.run.error = "the grade command line is wrong: " + message.substr(0, message.find('\n'));
  for (const auto& failure : write_grade_reports(files, report, config.version))
    err << "error: cannot write " << failure << "\n";
  return kExitUsage;
}

}  // namespace puzzle::cli
