// compute-sanitizer's text output -> findings in the shape of the simulator's (docs/report-format.md:
// severity, kind, message, file, line, block, thread, count), with the tool that found them.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace puzzle::cli {

struct SanitizerFinding {
  std::string tool;     // "memcheck", "racecheck", "synccheck"
  std::string kind;     // "invalid_global_write", "race", "barrier_divergence", ...
  std::string message;  // its first line, e.g. "Invalid __global__ write of size 4 bytes"
  std::string kernel;   // "row_softmax_kernel(const float *, float *, int, int)"
  std::string file;
  int line = 0;
  std::string block, thread;         // "(1,0,0)" of the first report
  std::vector<std::string> details;  // "Address 0x... is out of bounds", the other access of a race
  int count = 1;                     // reports with the same tool, message and place
  std::string severity = "error";    // "warning" for a hazard racecheck only suspects: it fails nothing
};

struct SanitizerOutput {
  std::vector<SanitizerFinding> findings;
  std::optional<int> errors;  // from its summary lines; absent when it printed none (it did not finish)
  std::vector<std::string> tool_errors;  // the sanitizer's own failures, e.g. "Internal Sanitizer Error: ..."
};

SanitizerOutput parse_sanitizer_output(const std::string& tool, const std::string& text);

std::string sanitizer_kind(
    const std::string& message);  // "Invalid __shared__ read ..." -> "invalid_shared_read"

}  // namespace puzzle::cli
