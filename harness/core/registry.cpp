#include "registry.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

namespace puzzle {
namespace {

// "01_row_softmax": the puzzle's folder under puzzles/, and the name of its stub.
std::string folder_name(const PuzzleSpec& puzzle) {
  char id[16];
  std::snprintf(id, sizeof id, "%02d_", puzzle.id);
  return id + puzzle.slug;
}

}  // namespace

const std::vector<PuzzleSpec>& all_puzzles() {
  static const std::vector<PuzzleSpec> puzzles = [] {
    std::vector<PuzzleSpec> specs = registered_puzzles();
    std::sort(specs.begin(), specs.end(),
              [](const PuzzleSpec& a, const PuzzleSpec& b) { return a.id < b.id; });
    for (size_t i = 0; i < specs.size(); ++i) {
      if (i > 0 && specs[i].id == specs[i - 1].id) {
        throw std::logic_error("two puzzles have id " + std::to_string(specs[i].id));
      }
      specs[i].file = folder_name(specs[i]) + ".cu";
      specs[i].docs = "puzzles/" + folder_name(specs[i]) + "/README.md";
    }
    return specs;
  }();
  return puzzles;
}

std::string puzzle_folder(const PuzzleSpec& puzzle) {
  return "puzzles/" + folder_name(puzzle);
}

std::string stub_path(const PuzzleSpec& puzzle) {
  return puzzle_folder(puzzle) + "/" + folder_name(puzzle) + ".cu";
}

std::string solutions_folder(const PuzzleSpec& puzzle) {
  return "solutions/" + folder_name(puzzle);
}

std::vector<std::filesystem::path> solution_ladder(const PuzzleSpec& puzzle,
                                                   const std::filesystem::path& root) {
  std::vector<std::pair<int, std::filesystem::path>> versions;
  std::error_code error;  // no folder: no ladder
  for (const auto& entry : std::filesystem::directory_iterator(root / solutions_folder(puzzle), error)) {
    const std::string name = entry.path().filename().string();
    const size_t digits = name.find_first_not_of("0123456789");
    if (digits == 0 || digits == std::string::npos || name[digits] != '_' ||
        entry.path().extension() != ".cu")
      continue;
    versions.emplace_back(std::stoi(name.substr(0, digits)), entry.path());
  }
  std::sort(versions.begin(), versions.end());
  std::vector<std::filesystem::path> ladder;
  for (auto& [version, path] : versions) ladder.push_back(std::move(path));
  return ladder;
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
