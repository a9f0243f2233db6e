// The command line: `puzzle check|list|hint|doctor ...`, parsed into plain option structs.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace puzzle::cli {

enum class BackendRequest { automatic, sim, gpu };

struct CheckOptions {
  std::string puzzle;  // as typed: "1", "01" or "row_softmax"
  BackendRequest backend = BackendRequest::automatic;
  std::optional<uint64_t> seed;  // random when absent
  bool solution = false;         // check solutions/<file> instead of puzzles/<file>
  std::optional<std::filesystem::path> file;
  std::optional<std::filesystem::path> json;
  std::optional<double> timeout_s;  // per case; the backend's default when absent
  std::vector<std::string> cases;   // only these (by name); all when empty
  bool verbose = false;
};

struct HintOptions {
  std::string puzzle;
  std::optional<int> level;  // the next one when absent
};

enum class CommandKind { check, list, hint, doctor };

struct Command {
  CommandKind kind = CommandKind::check;
  CheckOptions check;
  HintOptions hint;
  std::string text;  // the command line as typed, for the JSON report
};

struct ParsedCommandLine {
  std::optional<Command> command;  // absent: print `output` and exit with `exit_code`
  int exit_code = 0;               // 0 after --help, 2 after a usage error
  std::string output;              // help text or the error message with a pointer to --help
};

ParsedCommandLine parse_command_line(const std::vector<std::string>& argv);  // argv[0] is the program

}  // namespace puzzle::cli
