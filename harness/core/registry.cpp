#include "registry.hpp"

#include <algorithm>
#include <cctype>

#include "families/puzzles.hpp"

namespace puzzle {

const std::vector<PuzzleSpec>& all_puzzles() {
  static const std::vector<PuzzleSpec> puzzles = {puzzles::row_softmax(),    puzzles::tiled_softmax(),
                                                  puzzles::online_softmax(), puzzles::blocked_softmax(),
                                                  puzzles::flash_forward(),  puzzles::flash_backward()};
  return puzzles;
}

std::string puzzle_folder(const PuzzleSpec& puzzle) {
  return "puzzles/" + puzzle.file.substr(0, puzzle.file.rfind('.'));
}

std::string stub_path(const PuzzleSpec& puzzle) {
  return puzzle_folder(puzzle) + "/" + puzzle.file;
}

const PuzzleSpec* find_puzzle(int id) {
  for (const PuzzleSpec& p : all_puzzles()) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

const PuzzleSpec* find_puzzle(const std::string& id_or_slug) {
  const bool numeric =
      !id_or_slug.empty() && id_or_slug.size() <= 3 &&
      std::all_of(id_or_slug.begin(), id_or_slug.end(), [](unsigned char c) { return std::isdigit(c); });
  if (numeric) return find_puzzle(std::stoi(id_or_slug));
  for (const PuzzleSpec& p : all_puzzles()) {
    if (p.slug == id_or_slug) return &p;
  }
  return nullptr;
}

}  // namespace puzzle
