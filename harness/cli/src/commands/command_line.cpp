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

constexpr const char* kExitCodes =
    "Exit codes:\n"
    "  0  every case passed\n"
    "  1  the kernel failed: a wrong answer, a crash or a timeout\n"
    "  2  usage error (bad option, unknown puzzle, unreadable file) or the file did not compile\n"
    "  3  environment error: no compiler, no GPU for --backend gpu, missing build outputs, internal error\n"
    "`grade` exits 0 once it has written its reports, whatever the scores (docs/grading.md).\n";

void add_backend_option(CLI::App& sub, BackendRequest& backend) {
  const std::map<std::string, BackendRequest> backends{
      {"auto", BackendRequest::automatic}, {"sim", BackendRequest::sim}, {"gpu", BackendRequest::gpu}};
  sub.add_option("--backend", backend, "Where to run: auto (a GPU if there is one), sim or gpu")
      ->transform(CLI::CheckedTransformer(backends));
}

void add_seed_option(CLI::App& sub, std::optional<uint64_t>& seed, const std::string& help) {
  sub.add_option("--seed", seed, help)
      ->check(CLI::Validator(
          [](std::string& value) {
            const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
            return digits ? std::string() : "the seed is a whole number >= 0, not " + value;
          },
          "UINT"));
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
  check->add_option("--file", o.file, "Check this file instead of puzzles/NN_slug/NN_slug.cu")
      ->excludes(solution);
  check->add_option("--json", o.json, "Also write a machine-readable report to this file");
  check->add_option("--timeout", o.timeout_s, kCaseTimeoutHelp)->check(CLI::PositiveNumber);
  check->add_option("--case", o.cases, "Run only this case (repeatable)");
  check->add_flag("--verbose,-v", o.verbose, "Show build commands and full logs");
  check->add_flag("--sanitize", o.sanitize,
                  "Also run the cases under compute-sanitizer: memcheck, racecheck, synccheck (a GPU only)");
  // For the harness's own forgery tests, which try its run-time defences; `grade` never skips the check.
  check->add_flag("!--no-api-check", o.api_check,
                  "Build the file even if it uses process, file or exit APIs (for testing the harness)");
  check->callback([&command] { command.kind = CommandKind::check; });
}

void add_bench(CLI::App& app, Command& command) {
  auto* bench = app.add_subcommand(
      "bench",
      "Time your kernel and the solution over the puzzle's benchmark shapes (a GPU; the simulator "
      "counts memory traffic instead)");
  auto& o = command.bench;
  bench->add_option("puzzle", o.puzzle, "Puzzle number or name")->required();
  add_backend_option(*bench, o.backend);
  auto* solution = bench->add_flag("--solution", o.solution,
                                   "Time only the fastest reference solution (and the baseline)");
  auto* file = bench->add_option("--file", o.file, "Time this file instead of puzzles/NN_slug/NN_slug.cu")
                   ->excludes(solution);
  bench
      ->add_flag("--ladder", o.ladder,
                 "Time every version of the solution ladder (solutions/NN_slug/), side by side")
      ->excludes(solution)
      ->excludes(file);
  bench->add_option("--json", o.json, "Also write the results to this file");
  bench->add_option("--svg", o.svg, "Write the chart here (default .puzzle/bench_NN.svg)");
  bench->add_option("--timeout", o.timeout_s, "Seconds per shape and kernel (default: 120)")
      ->check(CLI::PositiveNumber);
  bench->add_option("--shape", o.shapes, "Time only this shape (repeatable), e.g. 8192x8192");
  bench->add_flag("!--no-torch", o.torch,
                  "Leave out PyTorch's columns (torch.softmax, SDPA), timed by baselines/torch_bench.py");
  bench->add_flag("--verbose,-v", o.verbose, "Show build commands and full logs");
  bench->callback([&command] { command.kind = CommandKind::bench; });
}

void add_hint(CLI::App& app, Command& command) {
  auto* hint = app.add_subcommand("hint", "Print the next hint for a puzzle (or the level asked for)");
  hint->add_option("puzzle", command.hint.puzzle, "Puzzle number or name")->required();
  hint->add_option("--level", command.hint.level, "Hint level 1 (a nudge) to 3 (nearly the answer)")
      ->check(CLI::Range(1, 3));
  hint->callback([&command] { command.kind = CommandKind::hint; });
}

void add_grade(CLI::App& app, Command& command) {
  auto* grade = app.add_subcommand(
      "grade",
      "Grade every puzzle (of a submission folder) and write score reports: JSON, Gradescope, JUnit");
  auto& o = command.grade;
  add_backend_option(*grade, o.backend);
  grade->add_option("--submission", o.submission, "Grade the puzzle files in this folder (default: puzzles/)")
      ->check(CLI::ExistingDirectory);
  grade->add_option("--puzzles", o.puzzles, "Only these puzzles, e.g. 1,3-5 (default: all)");
  add_seed_option(*grade, o.seed, "Seed for the inputs (default: a fixed one, or the grader's secret seed)");
  grade->add_option("--secret-seed-file", o.secret_seed_file,
                    "Read the grader's secret seed from this file (also: $PUZZLE_SECRET_SEED_FILE, "
                    "$PUZZLE_SECRET_SEED)");
  grade->add_option("--json", o.json, "Write the full report (docs/report-format.md) to this file");
  grade->add_option("--gradescope", o.gradescope, "Write Gradescope's results.json to this file");
  grade->add_option("--junit", o.junit, "Write a JUnit XML report to this file");
  grade->add_option("--timeout", o.timeout_s, kCaseTimeoutHelp)->check(CLI::PositiveNumber);
  grade
      ->add_option("--time-budget", o.time_budget_s,
                   "Seconds for the whole grade; puzzles not reached in time score 0 (default: no limit)")
      ->check(CLI::PositiveNumber);
  grade
      ->add_option("--perf-points", o.perf_points,
                   "Points per puzzle for speed relative to the reference solution (a GPU only; default 0)")
      ->check(CLI::NonNegativeNumber);
  grade->callback([&command] { command.kind = CommandKind::grade; });
}

void add_watch(CLI::App& app, Command& command) {
  auto* watch =
      app.add_subcommand("watch", "Check a puzzle again every time you save its file (Ctrl-C stops)");
  auto& o = command.check;
  watch->add_option("puzzle", o.puzzle, "Puzzle number or name")->required();
  add_backend_option(*watch, o.backend);
  add_seed_option(*watch, o.seed, "Seed for the inputs (default: one random seed for the whole session)");
  watch->add_option("--file", o.file, "Watch this file instead of puzzles/NN_slug/NN_slug.cu");
  watch->add_option("--timeout", o.timeout_s, kCaseTimeoutHelp)->check(CLI::PositiveNumber);
  watch->add_option("--case", o.cases, "Run only this case (repeatable)");
  watch->add_flag("--verbose,-v", o.verbose, "Show build commands and full logs");
  watch->callback([&command] { command.kind = CommandKind::watch; });
}

void add_reset(CLI::App& app, Command& command) {
  auto* reset =
      app.add_subcommand("reset", "Put the puzzle's original stub back (your file is backed up first)");
  reset->add_option("puzzle", command.reset.puzzle, "Puzzle number or name")->required();
  reset->callback([&command] { command.kind = CommandKind::reset; });
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
  app.footer(kExitCodes);
  app.require_subcommand(1);
  add_check(app, command);
  add_bench(app, command);
  app.add_subcommand("list", "List the puzzles with your best and your last result")->callback([&command] {
    command.kind = CommandKind::list;
  });
  add_grade(app, command);
  add_watch(app, command);
  app.add_subcommand("next", "Say which puzzle to do next, and its file")->callback([&command] {
    command.kind = CommandKind::next;
  });
  add_hint(app, command);
  add_reset(app, command);
  app.add_subcommand("doctor", "Check the compilers, the GPU and the simulator")->callback([&command] {
    command.kind = CommandKind::doctor;
  });

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
