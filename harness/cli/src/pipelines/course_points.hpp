// What a course grades and what each puzzle is worth, so that a grade's points mean what the instructor
// says rather than how many cases a puzzle has: `grade --course FILE` (one puzzle a line, "PUZZLE
// POINTS", # comments) or `grade --weights 1=10,3=20`.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "registry.hpp"

namespace puzzle::cli {

struct CoursePuzzle {
  const PuzzleSpec* spec = nullptr;
  double points = 0;  // the puzzle's whole worth: its passing cases' share of it
};

// The course's puzzles in registry order. UsageError, naming the file and line, for a line that is not a
// puzzle (number or name) and a number of points >= 0, a puzzle named twice, or no puzzle at all.
std::vector<CoursePuzzle> read_course_file(const std::filesystem::path& file);
std::vector<CoursePuzzle> parse_course(const std::string& text, const std::string& where);
// "1=10,3=20", the same as a course file of those lines.
std::vector<CoursePuzzle> parse_weights(const std::string& text);

}  // namespace puzzle::cli
