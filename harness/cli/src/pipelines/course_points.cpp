#include "pipelines/course_points.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "support/errors.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {
namespace {

double points_of(const std::string& text, const std::string& where) {
  double points = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), points);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !(points >= 0)) {
    throw UsageError(where + ": \"" + text + "\" is not a number of points (0 or more)");
  }
  return points;
}

// One puzzle and its points, from "PUZZLE POINTS" (a line) or "PUZZLE=POINTS" (--weights).
CoursePuzzle entry_of(const std::string& puzzle, const std::string& points, const std::string& where) {
  const PuzzleSpec* spec = find_puzzle(puzzle);
  if (!spec) throw UsageError(where + ": there is no puzzle \"" + puzzle + "\"");
  return {.spec = spec, .points = points_of(points, where)};
}

std::vector<CoursePuzzle> in_registry_order(std::vector<CoursePuzzle> puzzles, const std::string& where) {
  if (puzzles.empty()) throw UsageError(where + " names no puzzle");
  std::sort(puzzles.begin(), puzzles.end(),
            [](const CoursePuzzle& a, const CoursePuzzle& b) { return a.spec->id < b.spec->id; });
  for (size_t i = 1; i < puzzles.size(); ++i) {
    if (puzzles[i].spec == puzzles[i - 1].spec)
      throw UsageError(where + " names puzzle " + std::to_string(puzzles[i].spec->id) + " twice");
  }
  return puzzles;
}

}  // namespace

std::vector<CoursePuzzle> parse_course(const std::string& text, const std::string& where) {
  std::vector<CoursePuzzle> puzzles;
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string puzzle, points, extra;
    if (!(words >> puzzle)) continue;  // blank or a comment
    const std::string here = where + ":" + std::to_string(number);
    if (!(words >> points) || (words >> extra))
      throw UsageError(here + ": a line is a puzzle and its points, e.g. \"3 20\", not \"" + line + "\"");
    puzzles.push_back(entry_of(puzzle, points, here));
  }
  return in_registry_order(std::move(puzzles), where);
}

std::vector<CoursePuzzle> read_course_file(const std::filesystem::path& file) {
  const auto text = read_text(file);
  if (!text) throw UsageError("cannot read the course file " + file.string());
  return parse_course(*text, file.string());
}

std::vector<CoursePuzzle> parse_weights(const std::string& text) {
  std::vector<CoursePuzzle> puzzles;
  std::istringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const auto equals = item.find('=');
    if (equals == std::string::npos)
      throw UsageError("--weights takes PUZZLE=POINTS pairs such as 1=10,3=20, not \"" + item + "\"");
    puzzles.push_back(entry_of(item.substr(0, equals), item.substr(equals + 1), "--weights " + item));
  }
  return in_registry_order(std::move(puzzles), "--weights");
}

}  // namespace puzzle::cli
