// A puzzle file as a command reads it: where it came from and its text.
#pragma once
#include <filesystem>
#include <string>

#include "model/check_report.hpp"

namespace puzzle::cli {

struct PuzzleSource {
  std::filesystem::path file;
  SourceKind kind = SourceKind::learner;
  std::string text;
};

}  // namespace puzzle::cli
