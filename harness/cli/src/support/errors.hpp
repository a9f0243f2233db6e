// The two kinds of failure that are not the kernel's fault, with their exit codes.
#pragma once
#include <stdexcept>
#include <string>

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

// Runs `body`, turning what it throws into the report's `error` and `exit_code`: commands that write a
// report write it whatever went wrong.
template <class Report, class Body>
void report_errors(Report& report, Body&& body) {
  try {
    body();
  } catch (const UsageError& e) {
    report.error = e.what();
    report.exit_code = kExitUsage;
  } catch (const EnvironmentError& e) {
    report.error = e.what();
    report.exit_code = kExitEnvironment;
  } catch (const std::exception& e) {
    report.error = std::string("internal error: ") + e.what();
    report.exit_code = kExitEnvironment;
  }
}

}  // namespace puzzle::cli
