// Where a student's submission keeps a puzzle's file. Students upload loose files, a puzzles/ folder or a
// whole copy of the repository; each puzzle file has a unique name (01_row_softmax.cu), so look for it.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace puzzle::cli {

// The file named `name` in `dir` or below it: the shallowest one, and of those the first by path, so that
// the choice is the same on every machine. Hidden folders (.git, __MACOSX) are not searched.
std::optional<std::filesystem::path> find_submitted_file(const std::filesystem::path& dir,
                                                         const std::string& name);

}  // namespace puzzle::cli
