#include "pipelines/puzzle_selection.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

#include "support/errors.hpp"

namespace puzzle::cli {
namespace {

int parse_id(const std::string& text, const std::string& whole) {
  int id = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || id < 0) {
    throw UsageError("--puzzles takes puzzle numbers and ranges such as 1,3-5, not \"" + whole + "\"");
  }
  return id;
}

std::string known_ids() {
  std::string text;
  for (const auto& p : all_puzzles()) text += (text.empty() ? "" : ", ") + std::to_string(p.id);
  return text;
}

}  // namespace

std::vector<const PuzzleSpec*> select_puzzles(const std::string& text) {
  std::set<int> wanted;
  std::istringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const auto dash = item.find('-');
    const int first = parse_id(item.substr(0, dash), text);
    const int last = dash == std::string::npos ? first : parse_id(item.substr(dash + 1), text);
    if (last < first) throw UsageError("--puzzles: the range " + item + " is empty");
    for (int id = first; id <= last; ++id) {
      if (!find_puzzle(id)) {
        throw UsageError("--puzzles: there is no puzzle " + std::to_string(id) + "; the puzzles are " +
                         known_ids());
      }
      wanted.insert(id);
    }
  }
  if (!text.empty() && wanted.empty()) throw UsageError("--puzzles names no puzzle");
  std::vector<const PuzzleSpec*> selected;
  for (const auto& p : all_puzzles()) {
    if (text.empty() || wanted.contains(p.id)) selected.push_back(&p);
  }
  return selected;
}

}  // namespace puzzle::cli
