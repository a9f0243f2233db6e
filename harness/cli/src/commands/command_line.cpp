#include "commands/command_line.hpp"

#include <CLI/CLI.hpp>
#include <map>
#include <sstream>

#include "support/errors.hpp"

namespace puzzle::cli {
namespace {

constexpr const char* kCaseTimeoutHelp =
    "Seconds per case (default: 10 on a GPU; on the simulator a hang is stopped after a few seconds of "
    "CPU time, more for larger cases)";

// Each command's own exit codes, at the end of its --help.
constexpr const char* kCheckExitCodes =
    "Exit codes:\n"
    "  0  every case passed\n"
    "  1  the kernel failed: a wrong answer, a crash or a timeout\n"
    "  2  usage error (bad option, unknown puzzle, unreadable file) or the file did not compile\n"
    "  3  environment error: no compiler, no GPU for --backend gpu, missing build outputs\n";
constexpr const char* kBenchExitCodes =
    "Exit codes:\n"
    "  0  every shape timed (on the simulator: the traffic counted)\n"
    "  1  your kernel crashed, failed to launch or left outputs unwritten on some shape\n"
    "  2  usage error, or your file does not compile\n"
    "  3  environment error: no compiler, no GPU for --backend gpu, missing build outputs\n";
constexpr const char* kGradeExitCodes =
    "Exit codes:\n"
    "  0  graded, and the reports written, whatever the scores\n"
    "  2  usage error or nothing to grade: a bad option, an unknown puzzle, a folder that does not exist, "
    "no\n"
    "     puzzle file in the submission (or in any student's folder); the reports named still say why\n"
    "  3  a report could not be written, or an environment error stopped grading (no compiler, ...)\n";
constexpr const char* kWatchExitCodes =
    "Exit codes:\n"
    "  0  stopped with Ctrl-C, or every puzzle passed\n"
    "  2  usage error: bad option, unknown puzzle\n";
constexpr const char* kLearnerExitCodes =
    "Exit codes:\n"
    "  0  done\n"
    "  2  usage error: bad option, unknown puzzle, no backup to undo\n"
    "  3  environment error: no git checkout to take the stub from\n";
constexpr const char* kInfoExitCodes =
    "Exit codes:\n"
    "  0  done\n"
    "  2  usage error: bad option, unknown puzzle\n";
constexpr const char* kDoctorExitCodes =
    "Exit codes:\n"
    "  0  the simulator can build and run a check\n"
    "  3  it cannot: what is missing is said above\n";
constexpr const char* kFooter = "Each command's options and exit codes: puzzle COMMAND --help\n";

// Help without CLI11's internals ("ENUM:value in {auto->0,...}", "{false}", "Excludes: ..."): an option
// shows its own name for its value (option_text), else its type up to the first ':'; a flag shows nothing.
class PlainHelp : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* option) const override {
    if (option->get_type_size() == 0 || option->get_positional()) return "";
    std::string value = option->get_option_text();
    if (value.empty()) value = option->get_type_name().substr(0, option->get_type_name().find(':'));
    if (value.empty()) return "";
    return " " + value + (option->get_expected_max() > 1 ? " ..." : "");
  }
};

void add_backend_option(CLI::App& sub, BackendRequest& backend) {
  const std::map<std::string, BackendRequest> backends{
      {"auto", BackendRequest::automatic}, {"sim", BackendRequest::sim}, {"gpu", BackendRequest::gpu}};
  sub.add_option("--backend", backend, "Where to run: auto (a GPU if there is one, the default), sim or gpu")
      ->transform(CLI::CheckedTransformer(backends))
      ->option_text("auto|sim|gpu");
}

void add_seed_option(CLI::App& sub, std::optional<uint64_t>& seed, const std::string& help) {
  sub.add_option("--seed", seed, help)
      ->check(CLI::Validator(
          [](std::string& value) {
            const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
            return digits ? std::string() : "the seed is a whole number >= 0, not " + value;
          },
          ""))
      ->option_text("N");
}

void add_timeout_option(CLI::App& sub, std::optional<double>& seconds, const std::string& help,
                        const char* name = "--timeout") {
  sub.add_option(name, seconds, help)->check(CLI::PositiveNumber.description(""))->option_text("SECONDS");
}

// The GPU the simulator's speed estimate is for (harness/perf/gpu_table.cpp).
void add_gpu_option(CLI::App& sub, std::string& gpu) {
  sub.add_option("--gpu", gpu,
                 "On the simulator: estimate the speed on this GPU, h100 or h200 (default h100)")
      ->option_text("GPU");
}

void add_check(CLI::App& app, Command& command) {
  auto* check = app.add_subcommand("check", "Build a puzzle file, run its test cases and judge the outputs");
  auto& o = command.check;
  check->add_option("puzzle", o.puzzle, "Puzzle number or name, e.g. 1 or row_softmax")->required();
  add_backend_option(*check, o.backend);
  add_seed_option(*check, o.seed, "Seed for the random inputs (printed on every run)");
  auto* solution =
      check->add_flag("--solution", o.solution,
                      "Check the clear reference solution (solutions/NN_slug/1_clear.cu) instead of yours");
  check
      ->add_option("--file", o.file,
                   "Check this file instead of puzzles/NN_slug/NN_slug.cu (not with --solution)")
      ->excludes(solution)
      ->option_text("FILE");
  check->add_option("--json", o.json, "Also write a machine-readable report to this file")
      ->option_text("FILE");
  add_timeout_option(*check, o.timeout_s, kCaseTimeoutHelp);
  check->add_option("--case", o.cases, "Run only this case (repeatable)")->option_text("NAME");
  check->add_flag("--timed", o.timed,
                  "Run only the timed cases: timed on a GPU, their speed estimated on the simulator");
  check->add_flag("--verbose,-v", o.verbose, "Show build commands and full logs");
  add_gpu_option(*check, o.gpu);
  check->add_flag("--no-estimate", command.no_estimate,
                  "On the simulator: skip the timed cases' speed estimate (the verdict alone, sooner)");
  check->add_flag("--sanitize", o.sanitize,
                  "Also run the cases under compute-sanitizer: memcheck, racecheck, synccheck (a GPU only)");
  // For the harness's own forgery tests, which try its run-time defences; `grade` never skips the check.
  check->add_flag("--no-api-check", command.no_api_check,
                  "Build the file even if it uses process, file or exit APIs (for testing the harness)");
  check->footer(kCheckExitCodes);
  check->callback([&command] {
    command.kind = CommandKind::check;
    command.check.api_check = !command.no_api_check;
    command.check.estimate_speed = !command.no_estimate;
  });
}

void add_bench(CLI::App& app, Command& command) {
  auto* bench = app.add_subcommand(
      "bench",
      "Time your kernel and the solution over the puzzle's benchmark shapes (a GPU; the simulator "
      "estimates the times and counts memory traffic instead)");
  auto& o = command.bench;
  bench->add_option("puzzle", o.puzzle, "Puzzle number or name")->required();
  add_backend_option(*bench, o.backend);
  auto* solution = bench->add_flag("--solution", o.solution,
                                   "Time only the fastest reference solution (and the baseline)");
  auto* file = bench->add_option("--file", o.file, "Time this file instead of puzzles/NN_slug/NN_slug.cu")
                   ->excludes(solution)
                   ->option_text("FILE");
  bench
      ->add_flag("--ladder", o.ladder,
                 "Time every version of the solution ladder (solutions/NN_slug/), side by side")
      ->excludes(solution)
      ->excludes(file);
  bench->add_option("--json", o.json, "Also write the results to this file")->option_text("FILE");
  bench->add_option("--svg", o.svg, "Write the chart here (default .puzzle/bench_NN.svg)")
      ->option_text("FILE");
  add_timeout_option(*bench, o.timeout_s, "Seconds per shape and kernel (default: 120)");
  bench->add_option("--shape", o.shapes, "Time only this shape (repeatable), e.g. 8192x8192")
      ->option_text("NAME");
  add_gpu_option(*bench, o.gpu);
  bench->add_flag("--no-torch", command.no_torch,
                  "Leave out PyTorch's columns (torch.softmax, SDPA), timed by baselines/torch_bench.py");
  bench->add_flag("--verbose,-v", o.verbose, "Show build commands and full logs");
  bench->footer(kBenchExitCodes);
  bench->callback([&command] {
    command.kind = CommandKind::bench;
    command.bench.torch = !command.no_torch;
  });
}

void add_hint(CLI::App& app, Command& command) {
  auto* hint = app.add_subcommand("hint", "Print the next hint for a puzzle (or the level asked for)");
  hint->add_option("puzzle", command.hint.puzzle, "Puzzle number or name")->required();
  hint->add_option("--level", command.hint.level, "Hint level 1 (a nudge) to 3 (nearly the answer)")
      ->check(CLI::Range(1, 3).description(""))
      ->option_text("1-3");
  hint->footer(kInfoExitCodes);
  hint->callback([&command] { command.kind = CommandKind::hint; });
}

// An option naming a folder or file that must exist (`must` is CLI::ExistingDirectory or ExistingFile).
template <class Path>
CLI::Option* add_existing(CLI::App& sub, const char* name, Path& path, const std::string& help,
                          CLI::Validator must, const char* shown) {
  return sub.add_option(name, path, help)->check(must.description(""))->option_text(shown);
}

void add_grade(CLI::App& app, Command& command) {
  auto* grade = app.add_subcommand(
      "grade",
      "Grade a submission's puzzle files, or a class's, and write score reports: JSON, Gradescope, JUnit, a "
      "gradebook");
  auto& o = command.grade;
  add_backend_option(*grade, o.backend);
  auto* submission = add_existing(*grade, "--submission", o.submission,
                                  "Grade the puzzle files in this folder (default: puzzles/)",
                                  CLI::ExistingDirectory, "DIR");
  auto* class_dir =
      add_existing(*grade, "--class", o.class_dir,
                   "Grade a class: each folder in DIR is a student's submission, graded on its own; "
                   "reports and gradebook.csv go to --out",
                   CLI::ExistingDirectory, "DIR");
  auto* roster =
      add_existing(*grade, "--roster", o.roster,
                   "Grade a class from a roster: lines \"NAME FOLDER\" (or \"FOLDER\"), folders relative "
                   "to the file",
                   CLI::ExistingFile, "FILE")
          ->excludes(class_dir);
  grade->add_option("--out", o.out, "With --class or --roster: where the reports go (default: grades/)")
      ->option_text("DIR");
  grade
      ->add_option("--jobs", o.jobs,
                   "With --class or --roster: students graded at once (default: one per core)")
      ->check(CLI::PositiveNumber.description(""))
      ->option_text("N");
  auto* puzzles = grade->add_option("--puzzles", o.puzzles, "Only these puzzles, e.g. 1,3-5 (default: all)")
                      ->check(CLI::Validator(
                          [](std::string& value) { return value.empty() ? "names no puzzle" : ""; }, ""))
                      ->option_text("LIST");
  auto* course =
      add_existing(*grade, "--course", o.course,
                   "The course's puzzles and points: lines \"PUZZLE POINTS\", # comments; each puzzle's "
                   "cases share its points",
                   CLI::ExistingFile, "FILE")
          ->excludes(puzzles);
  grade->add_option("--weights", o.weights, "The same on the command line, e.g. 1=10,3=20")
      ->option_text("LIST")
      ->excludes(puzzles)
      ->excludes(course);
  add_seed_option(*grade, o.seed, "Seed for the inputs (default: a fixed one, or the grader's secret seed)");
  grade
      ->add_option("--secret-seed-file", o.secret_seed_file,
                   "Read the grader's secret seed from this file (also: $PUZZLE_SECRET_SEED_FILE, "
                   "$PUZZLE_SECRET_SEED)")
      ->option_text("FILE");
  const auto single = [&](const char* name, std::optional<std::filesystem::path>& file, const char* help) {
    grade->add_option(name, file, help)->option_text("FILE")->excludes(class_dir)->excludes(roster);
  };
  single("--json", o.json, "Write the full report (docs/report-format.md) to this file");
  single("--gradescope", o.gradescope, "Write Gradescope's results.json to this file");
  single("--junit", o.junit, "Write a JUnit XML report to this file");
  submission->excludes(class_dir)->excludes(roster);
  add_timeout_option(*grade, o.timeout_s, kCaseTimeoutHelp);
  add_timeout_option(*grade, o.time_budget_s,
                     "Seconds for the whole grade (a student's, with --class); puzzles not reached score 0 "
                     "(default: no limit)",
                     "--time-budget");
  grade
      ->add_option("--perf-points", o.perf_points,
                   "Points per puzzle for speed relative to the reference solution (timed on a GPU, "
                   "estimated on the simulator; default 0)")
      ->check(CLI::NonNegativeNumber.description(""))
      ->option_text("POINTS");
  add_gpu_option(*grade, o.gpu);
  grade->footer(kGradeExitCodes);
  grade->callback([&command] { command.kind = CommandKind::grade; });
}

void add_watch(CLI::App& app, Command& command) {
  auto* watch = app.add_subcommand(
      "watch",
      "Check a puzzle again every time you save its file; after a pass, go on to the next puzzle (Ctrl-C "
      "stops)");
  auto& o = command.check;
  watch
      ->add_option("puzzle", o.puzzle, "Puzzle number or name (default: the next one, as `puzzle next` says)")
      ->option_text("PUZZLE");
  add_backend_option(*watch, o.backend);
  add_seed_option(*watch, o.seed, "Seed for the inputs (default: one random seed for the whole session)");
  watch->add_option("--file", o.file, "Watch this file instead of puzzles/NN_slug/NN_slug.cu (stays on it)")
      ->option_text("FILE");
  add_timeout_option(*watch, o.timeout_s, kCaseTimeoutHelp);
  watch->add_option("--case", o.cases, "Run only this case (repeatable)")->option_text("NAME");
  add_gpu_option(*watch, o.gpu);
  watch->add_flag("--verbose,-v", o.verbose, "Show build commands and full logs");
  watch->footer(kWatchExitCodes);
  watch->callback([&command] { command.kind = CommandKind::watch; });
}

void add_reset(CLI::App& app, Command& command) {
  auto* reset = app.add_subcommand(
      "reset",
      "Put the puzzle's original stub back (your file is kept in .puzzle/backups/); --undo brings it back");
  reset->add_option("puzzle", command.reset.puzzle, "Puzzle number or name")
      ->required()
      ->option_text("PUZZLE");
  reset->add_flag("--undo", command.reset.undo,
                  "Put back your file as the last reset found it (the newest backup of it)");
  reset->footer(kLearnerExitCodes);
  reset->callback([&command] { command.kind = CommandKind::reset; });
}

// `puzzle test` is the ./puzzle script's (it builds everything first): listed here so that --help shows
// it, and answered with where to run it when this program is called directly.
void add_test(CLI::App& app, Command& command) {
  auto* test = app.add_subcommand(
      "test", "Build everything and run the whole test suite, as CI does (ctest options pass through)");
  test->allow_extras();
  test->footer("Run through the ./puzzle script at the repository's root, which builds first.\n" +
               std::string(kInfoExitCodes));
  test->callback([&command] { command.kind = CommandKind::test; });
}

// CLI11 answers an unknown subcommand with "A subcommand is required"; name it instead.
std::optional<std::string> unknown_subcommand(CLI::App& app, const std::vector<std::string>& argv) {
  if (argv.size() < 2 || argv[1].starts_with("-")) return std::nullopt;
  std::string known;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_name() == argv[1]) return std::nullopt;
    known += (known.empty() ? "" : ", ") + sub->get_name();
  }
  return "unknown command \"" + argv[1] + "\"; the commands are " + known +
         "\nRun with --help for more information.\n";
}

// The command as the learner would retype it: "puzzle check 1", whatever path ran the program.
std::string command_text(const std::vector<std::string>& argv) {
  std::string text = argv.empty() ? "puzzle" : std::filesystem::path(argv[0]).filename().string();
  for (size_t i = 1; i < argv.size(); ++i) text += " " + argv[i];
  return text;
}

}  // namespace

ParsedCommandLine parse_command_line(const std::vector<std::string>& argv) {
  Command command;
  CLI::App app{"puzzle: build, run and judge CUDA puzzle files, on a GPU or on the CPU simulator", "puzzle"};
  app.formatter(std::make_shared<PlainHelp>());  // before the subcommands, which copy it
  app.footer(kFooter);
  app.require_subcommand(1);
  add_check(app, command);
  add_watch(app, command);
  add_hint(app, command);
  app.add_subcommand("next", "Say which puzzle to do next, and its file")
      ->footer(kInfoExitCodes)
      ->callback([&command] { command.kind = CommandKind::next; });
  app.add_subcommand("list", "List the puzzles with your best and your last result")
      ->footer(kInfoExitCodes)
      ->callback([&command] { command.kind = CommandKind::list; });
  add_reset(app, command);
  add_bench(app, command);
  add_grade(app, command);
  app.add_subcommand("doctor", "Check the compilers, the GPU and the simulator")
      ->footer(kDoctorExitCodes)
      ->callback([&command] { command.kind = CommandKind::doctor; });
  add_test(app, command);

  ParsedCommandLine result;
  if (auto unknown = unknown_subcommand(app, argv)) {
    result.exit_code = kExitUsage;
    result.output = *unknown;
    return result;
  }
  std::vector<const char*> args;
  for (const auto& a : argv) args.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    const bool help = app.exit(e, out, err) == 0;
    result.exit_code = help ? kExitPassed : kExitUsage;
    result.output = help ? out.str() : err.str();
    return result;
  }
  command.text = command_text(argv);
  result.command = command;
  return result;
}

}  // namespace puzzle::cli
