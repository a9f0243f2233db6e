// The solution ladder of every puzzle (solutions/NN_slug/<V>_<what_changes>.cu): a clear version
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

// The versions of a puzzle's ladder by number, as the registry finds them.
std::map<int, std::filesystem::path> ladder(const PuzzleSpec& p) {
  std::map<int, std::filesystem::path> versions;
  for (const auto& file : solution_ladder(p, kRoot)) versions[std::stoi(file.filename().string())] = file;
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

TEST_CASE("every version is named for what it changes, and its kernel is in it or in a header named after it") {
  static const std::regex vague(R"([0-9]+_(fast|faster|fastest|optimi[sz]ed|final|v[0-9]+|new)\.cu)");
  static const std::regex local_include(R"re(#include "([^"]+)")re");
  for (const PuzzleSpec& p : all_puzzles()) {
    CAPTURE(p.slug);
    for (const auto& file : solution_ladder(p, kRoot)) {
      const std::string name = file.filename().string();
      CAPTURE(name);
      CHECK_FALSE(std::regex_match(name, vague));
      const std::string text = read(file);
      if (text.find("__global__") != std::string::npos) continue;
      // "2_register_tiles.cu" -> "register_tiles.cuh", beside it or in solutions/common/
      const std::string own_header = name.substr(name.find('_') + 1, name.size() - name.find('_') - 3) + "cuh";
      bool found = false;
      for (std::sregex_iterator it(text.begin(), text.end(), local_include), end; it != end; ++it)
        found |= std::filesystem::path((*it)[1].str()).filename() == own_header;
      CHECK_MESSAGE(found, name << " has no kernel of its own and includes no " << own_header);
    }
  }
}

TEST_CASE("what several puzzles' versions share lives in solutions/common/, not in another puzzle's folder") {
  static const std::regex local_include(R"re(#include "([^"]+)")re");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kRoot / "solutions")) {
    const auto ext = entry.path().extension();
    if (ext != ".cu" && ext != ".cuh") continue;
    CAPTURE(entry.path().string());
    const std::string text = read(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), local_include), end; it != end; ++it) {
      const std::string included = (*it)[1].str();
      CAPTURE(included);
      CHECK((included.find('/') == std::string::npos || included.rfind("../common/", 0) == 0));
      CHECK(std::filesystem::exists(entry.path().parent_path() / included));
    }
  }
}
