// The command line: `puzzle check|watch|hint|next|list|reset|bench|grade|doctor|test ...`, parsed into plain
// option structs (model/options.hpp).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/options.hpp"

namespace puzzle::cli {

enum class CommandKind { check, bench, grade, watch, list, next, hint, reset, doctor, test };

struct Command {
  CommandKind kind = CommandKind::check;
  CheckOptions check;
  BenchOptions bench;
  HintOptions hint;
  GradeOptions grade;  // `watch` uses `check`
  ResetOptions reset;
  std::string text;  // the command line as typed, for the JSON report
  // --no-api-check, --no-estimate, --no-torch, before they become options
  bool no_api_check = false, no_estimate = false, no_torch = false;
};

struct ParsedCommandLine {
  std::optional<Command> command;  // absent: print `output` and exit with `exit_code`
  int exit_code = 0;               // 0 after --help, 2 after a usage error
  std::string output;              // help text or the error message with a pointer to --help
};

ParsedCommandLine parse_command_line(const std::vector<std::string>& argv);  // argv[0] is the program

}  // namespace puzzle::cli
