// `puzzle check` without the printing: resolve, choose a backend, build, run, judge, time.
#pragma once
#include <functional>
#include <string>

#include "model/build_config.hpp"
#include "model/check_report.hpp"
#include "model/options.hpp"

namespace puzzle::cli {

// Called as the check goes, so that a console can show each step when it happens. Any may be empty.
struct CheckObserver {
  std::function<void(const CheckReport&)> started;  // backend, device, seed and file are known
  std::function<void(const PuzzleReport&)> built;   // the build line
  std::function<void(const std::string&)> running;  // "running 7 cases on the simulator ..."
};

// Never throws: usage and environment errors end up in report.error and report.exit_code.
CheckReport run_check(const CheckOptions& options, const std::string& command_text, const BuildConfig& config,
                      const CheckObserver& observer = {});

double default_case_timeout_s(Backend backend);  // when --timeout is absent
std::string utc_now();                           // ISO 8601, as reports write their creation time

PuzzleStatus overall_status(const PuzzleReport& puzzle);  // the worst case's status
int exit_code_for(PuzzleStatus status);

}  // namespace puzzle::cli
