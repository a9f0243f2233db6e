// `--puzzles 1,3-5`: which puzzles of the registry a command is about.
#pragma once
#include <string>
#include <vector>

#include "registry.hpp"

namespace puzzle::cli {

// Every puzzle for "", else the listed ids and ranges in registry order, each once. UsageError for text
// that is not a list of ids and ranges, or for an id the registry does not have.
std::vector<const PuzzleSpec*> select_puzzles(const std::string& text);

}  // namespace puzzle::cli
