// The solution ladder of every puzzle (puzzles/NN_slug/solutions/<V>_<what_changes>.cu): a clear version
// a learner can read and copy, then the fast ones, each saying what it changes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "registry.hpp"

using namespace puzzle;

namespace {

const std::filesystem::path kRoot = PUZZLE_SOURCE_DIR;

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  REQUIRE_MESSAGE(in, file.string() << " is missing");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The versions of a puzzle's ladder by number.
std::map<int, std::filesystem::path> ladder(const PuzzleSpec& p) {
  const auto folder = kRoot / "puzzles" / std::filesystem::path(p.file).stem() / "solutions";
  std::map<int, std::filesystem::path> versions;
  static const std::regex version(R"(([0-9]+)_[a-z0-9_]+\.cu)");
  std::smatch match;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (std::regex_match(name, match, version)) versions[std::stoi(match[1])] = entry.path();
  }
  return versions;
}

// The stub's budget is "roughly N lines for kernel + launcher". A solution's lines are counted as the
// learner's would be: every line but blank ones, comment-only ones and preprocessor lines (#include,
// #pragma). Helpers, constants, kernels and the launcher all count; comments beside code are free.
int code_lines(const std::string& text) {
  static const std::regex not_code(R"(^\s*(//.*|#.*)?$)");
  std::istringstream lines(text);
  int count = 0;
  for (std::string line; std::getline(lines, line);) count += !std::regex_match(line, not_code);
  return count;
}

}  // namespace

TEST_CASE("code lines leave out blank, comment-only and preprocessor lines") {
  CHECK(code_lines("// a comment\n#include <cmath>\n\n  #pragma unroll\nint x = 1;  // counted\n}\n") == 2);
}

TEST_CASE("every puzzle's clear solution stands alone within the stub's line budget") {
  for (const PuzzleSpec& p : all_puzzles()) {
    CAPTURE(p.slug);
    const auto versions = ladder(p);
    REQUIRE(versions.count(1) == 1);
    CHECK(versions.at(1).filename() == "1_clear.cu");
    const std::string clear = read(versions.at(1));
    CHECK(code_lines(clear) <= p.line_budget);
    // Standalone: copied alone into puzzles/, it must still build (the kernel tests check it builds and
    // passes from an empty folder; this names the cause at once).
    CHECK(clear.find("#include \"") == std::string::npos);
  }
}

TEST_CASE("each version of a ladder says in its first lines what it changes over the previous one") {
  for (const PuzzleSpec& p : all_puzzles()) {
    CAPTURE(p.slug);
    const auto versions = ladder(p);
    int expected = 1;
    for (const auto& [number, file] : versions) {
      CAPTURE(file.filename().string());
      CHECK(number == expected++);  // 1, 2, 3, ...: no gap
      const std::string text = read(file);
      const std::string head = text.substr(0, text.find("\n//\n"));  // the first comment paragraph
      CHECK(head.find("version " + std::to_string(number)) != std::string::npos);
      if (number > 1)
        CHECK(head.find("Over " + versions.at(number - 1).filename().string()) != std::string::npos);
    }
  }
}
