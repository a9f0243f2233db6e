#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <map>
#include <sstream>

#include "errors.hpp"

namespace puzzle::cli {
namespace {

constexpr const char* kExitCodes =
    "Exit codes:\n"
    "  0  every case passed\n"
    "  1  the kernel failed: a wrong answer, a crash or a timeout\n"
    "  2  usage error (bad option, unknown puzzle, unreadable file) or the file did not compile\n"
    "  3  environment error: no compiler, no GPU for --backend gpu, missing build outputs, internal error\n";

void add_check(CLI::App& app, Command& command) {
  auto* check = app.add_subcommand("check", "Build a puzzle file, run its test cases and judge the outputs");
  auto& o = command.check;
  check->add_option("puzzle", o.puzzle, "Puzzle number or name, e.g. 1 or row_softmax")->required();
  const std::map<std::string, BackendRequest> backends{
      {"auto", BackendRequest::automatic}, {"sim", BackendRequest::sim}, {"gpu", BackendRequest::gpu}};
  check->add_option("--backend", o.backend, "Where to run: auto (a GPU if there is one), sim or gpu")
      ->transform(CLI::CheckedTransformer(backends));
  check->add_option("--seed", o.seed, "Seed for the random inputs (printed on every run)")
      ->check(CLI::Validator(
          [](std::string& value) {
            const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
            return digits ? std::string() : "the seed is a whole number >= 0, not " + value;
          },
          "UINT"));
  auto* solution = check->add_flag("--solution", o.solution, "Check the reference solution instead of yours");
  check->add_option("--file", o.file, "Check this file instead of puzzles/<file>")->excludes(solution);
  check->add_option("--json", o.json, "Also write a machine-readable report to this file");
  check->add_option("--timeout", o.timeout_s, "Seconds per case (default: 10 on a GPU, 60 on the simulator)")
      ->check(CLI::PositiveNumber);
  check->add_option("--case", o.cases, "Run only this case (repeatable)");
  check->add_flag("--verbose,-v", o.verbose, "Show build commands and full logs");
  check->callback([&command] { command.kind = CommandKind::check; });
}

void add_hint(CLI::App& app, Command& command) {
  auto* hint = app.add_subcommand("hint", "Print the next hint for a puzzle (or the level asked for)");
  hint->add_option("puzzle", command.hint.puzzle, "Puzzle number or name")->required();
  hint->add_option("--level", command.hint.level, "Hint level 1 (a nudge) to 3 (nearly the answer)")
      ->check(CLI::Range(1, 3));
  hint->callback([&command] { command.kind = CommandKind::hint; });
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
  app.add_subcommand("list", "List the puzzles with your last result")->callback([&command] {
    command.kind = CommandKind::list;
  });
  add_hint(app, command);
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
