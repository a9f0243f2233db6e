// The two kinds of failure that are not the kernel's fault, with their exit codes.
#pragma once
#include <stdexcept>

namespace puzzle::cli {

enum ExitCode : int {
  kExitPassed = 0,
  kExitKernelFailed = 1,  // wrong answer, crash or timeout
  kExitUsage = 2,         // bad command line, unreadable file, or the file did not compile
  kExitEnvironment = 3,   // no compiler, no GPU for --backend gpu, missing build outputs, internal error
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct EnvironmentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace puzzle::cli
