// The command line as the tool sees it, for the parser tests: parse({"check", "1"}).
#pragma once
#include <string>
#include <vector>

#include "commands/command_line.hpp"

namespace puzzle::cli::testing {

inline ParsedCommandLine parse(std::vector<std::string> args) {
  args.insert(args.begin(), "puzzle");
  return parse_command_line(args);
}

}  // namespace puzzle::cli::testing
