// The subcommands. Each returns the process exit code (errors.hpp).
#pragma once
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "commands/command_line.hpp"
#include "model/build_config.hpp"
#include "report/style.hpp"

namespace puzzle::cli {

int check_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err);
int bench_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err);
int grade_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err);
// After a bad `grade` command line: the error goes into every report the command line names, so that a
// grader (Gradescope) shows it. Returns 0 when at least one report was written, else 2.
int grade_usage_error(const std::vector<std::string>& argv, const std::string& message,
                      const BuildConfig& config, std::ostream& err);
// Runs until Ctrl-C, every puzzle passed, or `keep_watching` says false (for tests).
int watch_command(
    const Command& command, const BuildConfig& config, Style style, std::ostream& out, std::ostream& err,
    const std::function<bool()>& keep_watching = [] { return true; });
int list_command(const BuildConfig& config, Style style, std::ostream& out);
int next_command(const BuildConfig& config, Style style, std::ostream& out);
int reset_command(const ResetOptions& options, const BuildConfig& config, std::ostream& out);
int hint_command(const HintOptions& options, const BuildConfig& config, Style style, std::ostream& out);
int doctor_command(const BuildConfig& config, Style style, std::ostream& out);

}  // namespace puzzle::cli
