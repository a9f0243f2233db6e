// puzzle: build, run and judge CUDA puzzle files (docs/architecture.md).
#include <unistd.h>

#include <iostream>

#include "commands/command_line.hpp"
#include "commands/commands.hpp"
#include "model/build_config.hpp"
#include "support/errors.hpp"
#include "support/subprocess.hpp"

int main(int argc, char** argv) {
  using namespace puzzle::cli;
  const ParsedCommandLine parsed = parse_command_line(std::vector<std::string>(argv, argv + argc));
  if (!parsed.command) {
    // A grader's reports must say why grading did not run, also after a bad option (docs/grading.md).
    if (parsed.exit_code == kExitUsage && argc > 1 && std::string(argv[1]) == "grade")
      return grade_usage_error(std::vector<std::string>(argv, argv + argc), parsed.output, build_config(),
                               std::cerr);
    (parsed.exit_code == kExitPassed ? std::cout : std::cerr) << parsed.output;
    return parsed.exit_code;
  }
  kill_children_on_interrupt();
  const Command& command = *parsed.command;
  const BuildConfig& config = build_config();
  const Style style(color_wanted(STDOUT_FILENO));
  try {
    switch (command.kind) {
      case CommandKind::check:
        return check_command(command, config, style, std::cout, std::cerr);
      case CommandKind::bench:
        return bench_command(command, config, style, std::cout, std::cerr);
      case CommandKind::grade:
        return grade_command(command, config, style, std::cout, std::cerr);
      case CommandKind::watch:
        return watch_command(command, config, style, std::cout, std::cerr);
      case CommandKind::list:
        return list_command(config, style, std::cout);
      case CommandKind::next:
        return next_command(config, style, std::cout);
      case CommandKind::reset:
        return reset_command(command.reset, config, std::cout);
      case CommandKind::hint:
        return hint_command(command.hint, config, style, std::cout);
      case CommandKind::doctor:
        return doctor_command(config, style, std::cout);
      case CommandKind::test:
        std::cerr << "puzzle test: run it as ./puzzle test at the repository's root ("
                  << config.source_dir.string() << "), which builds everything first\n";
        return kExitUsage;
    }
  } catch (const UsageError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitEnvironment;
  }
  return kExitEnvironment;
}
