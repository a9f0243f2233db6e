// The subcommands. Each returns the process exit code (errors.hpp).
#pragma once
#include <ostream>

#include "build_config.hpp"
#include "command_line.hpp"
#include "style.hpp"

namespace puzzle::cli {

int check_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err);
int list_command(const BuildConfig& config, Style style, std::ostream& out);
int hint_command(const HintOptions& options, const BuildConfig& config, Style style, std::ostream& out);
int doctor_command(const BuildConfig& config, Style style, std::ostream& out);

}  // namespace puzzle::cli
