// The registry is the one description of each puzzle: its stub, solution and docs page must agree
// with it, so a change to a puzzle's contract cannot leave a learner reading a stale page. A puzzle is
// one folder, puzzles/NN_slug/: a half-added one (a file missing, no table row) fails here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "registry.hpp"

using namespace puzzle;

namespace {

const std::filesystem::path kRoot = PUZZLE_SOURCE_DIR;

std::string read(const std::filesystem::path& relative) {
  std::ifstream in(kRoot / relative);
  REQUIRE_MESSAGE(in, (kRoot / relative).string() << " is missing");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs of whitespace as one space: the stub may wrap its launcher's parameters as clang-format likes.
std::string one_line(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      out += c;
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
  return out;
}

// `text` as a regex that matches it literally.
std::string literal(const std::string& text) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(text, special, R"(\$&)");
}

// Lines of `text` matching `pattern`.
int count_lines(const std::string& text, const std::regex& pattern) {
  std::istringstream lines(text);
  int count = 0;
  for (std::string line; std::getline(lines, line);) count += std::regex_search(line, pattern) ? 1 : 0;
  return count;
}

// `text` without what is quoted rather than said: fenced code blocks, `code` spans, and link targets
// (`](../x.md#section)`), so that `#pragma` or an anchor is not taken for a reference.
std::string prose(const std::string& text) {
  static const std::regex span("`[^`]*`");
  static const std::regex target(R"(\]\([^)\s]*\))");
  std::istringstream lines(text);
  std::string out;
  bool fenced = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("```") != std::string::npos && line.find_first_not_of(' ') == line.find("```")) {
      fenced = !fenced;
    } else if (!fenced) {
      out += std::regex_replace(std::regex_replace(line, span, " "), target, "] ") + "\n";
    }
  }
  return out;
}

// What only the project's own workflow knows: an issue number (`#24`), a seed of the reading list
// ("seed 003"), a working session. A learner reads the page without that history.
std::string internal_references(const std::string& text) {
  static const std::regex issue("#[0-9]+");
  static const std::regex seed("seed [0-9]{3}", std::regex::icase);
  static const std::regex session("\\bsession\\b", std::regex::icase);
  std::string found;
  const std::string said = prose(text);
  for (const std::regex* pattern : {&issue, &seed, &session}) {
    for (std::sregex_iterator m(said.begin(), said.end(), *pattern), end; m != end; ++m) {
      found += (found.empty() ? "" : ", ") + m->str();
    }
  }
  return found;
}

}  // namespace

TEST_CASE("every puzzle's files and docs agree with the registry") {
  const std::string readme = read("README.md");
  for (const PuzzleSpec& p : all_puzzles()) {
    CAPTURE(p.slug);
    const std::string stub = read(stub_path(p));
    const std::string solution = read(solutions_folder(p) + "/1_clear.cu");
    const std::string page = read(p.docs);

    CHECK(contains(one_line(stub), p.signature));  // the launcher the harness calls (PUZZLE_LAUNCHER)
    CHECK(contains(solution, p.signature.substr(0, p.signature.find('('))));
    CHECK(contains(stub, p.docs));
    CHECK(contains(stub, "roughly " + std::to_string(p.line_budget)));
    CHECK(contains(stub, p.traffic_budget));
    CHECK(contains(stub, "./puzzle check " + std::to_string(p.id)));

    CHECK(contains(page, p.title));
    CHECK(contains(
        page, p.signature.substr(p.signature.find(' ') + 1, p.signature.find('(') - p.signature.find(' '))));
    CHECK(contains(page, "./puzzle check " + std::to_string(p.id)));
    // Its row of the puzzle table, README.md's (the only list of puzzles the docs keep).
    const std::regex row(literal("\n| " + std::to_string(p.id) + " | [" + p.title + "](" + p.docs + ") | ") +
                         "[^|\\n]+" + literal(" | `" + stub_path(p) + "` |\n"));
    CHECK_MESSAGE(std::regex_search(readme, row), "README.md has no table row for puzzle " << p.id);
  }
  // And no row for a puzzle that is not registered.
  CHECK(count_lines(readme, std::regex(R"(^\| [0-9]+ \| \[)")) == static_cast<int>(all_puzzles().size()));
}

TEST_CASE("every puzzle's page teaches; its measurement history is in docs/measurements/") {
  const std::regex date("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  for (const PuzzleSpec& p : all_puzzles()) {
    CAPTURE(p.slug);
    const std::string page = read(p.docs);
    CHECK_MESSAGE(internal_references(page).empty(), p.docs << " names " << internal_references(page));

    // At most two dated figures (the ladder's and the one beside PyTorch): older runs, other GPUs,
    // profiles and designs not shipped belong to the puzzle's measurements file.
    std::set<std::string> dates;
    for (std::sregex_iterator m(page.begin(), page.end(), date), end; m != end; ++m) dates.insert(m->str());
    CHECK_MESSAGE(dates.size() <= 2, p.docs << " holds " << dates.size() << " dates");

    const std::string folder = puzzle_folder(p);
    const std::string name = folder.substr(folder.rfind('/') + 1);
    const std::string measurements = "docs/measurements/" + name + ".md";
    CHECK_MESSAGE(contains(page, "](../../" + measurements + ")"),
                  p.docs << " does not link " << measurements);
    if (!std::filesystem::exists(kRoot / measurements)) {
      FAIL_CHECK(measurements << " is missing");
      continue;
    }
    const std::string history = read(measurements);
    CHECK_MESSAGE(internal_references(history).empty(),
                  measurements << " names " << internal_references(history));
  }
}

TEST_CASE("every folder under puzzles/ is a whole, registered puzzle") {
  std::set<std::string> registered;
  for (const PuzzleSpec& p : all_puzzles()) registered.insert(puzzle_folder(p));
  int folders = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kRoot / "puzzles")) {
    if (!entry.is_directory()) continue;
    const std::string folder = "puzzles/" + entry.path().filename().string();
    CAPTURE(folder);
    ++folders;
    // Registered: its spec.cpp was found by CMake (harness/core/CMakeLists.txt) and its id and slug give
    // this folder's name.
    CHECK(registered.contains(folder));
    const std::string name = entry.path().filename().string();
    for (const std::string file : {name + ".cu", std::string("spec.cpp"), std::string("README.md")}) {
      CHECK_MESSAGE(std::filesystem::exists(entry.path() / file), folder << "/" << file << " is missing");
    }
  }
  CHECK(folders == static_cast<int>(all_puzzles().size()));
}

TEST_CASE("every path docs/architecture.md names exists") {
  const std::string page = read("docs/architecture.md");
  // Every file name in the repository, for names given without their folder (`grade_pipeline.*`).
  std::set<std::string> names;
  for (auto it = std::filesystem::recursive_directory_iterator(kRoot); it != decltype(it)(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->path() == kRoot / "build" || name.starts_with(".")) {  // build/ is made by the tool
      it.disable_recursion_pending();
      continue;
    }
    names.insert(name);
  }
  // `code` spans and the first word of the lines of the layout block. A path holds a '/' and no
  // placeholder or pattern (NN, <...>, [0-9], a call's parentheses); `build/` and `.puzzle/` are made by the
  // tool, not kept in the repository, and "Add a puzzle" names the files of its example, puzzle 13, before
  // they exist.
  const std::regex code(R"(`([^`\s]+)`|^([A-Za-z][\w./-]*/[\w./-]*)\s)");
  const std::regex file_name(R"(^[\w-]+\.(\*|cpp|hpp|cu|cuh|md|sh|cmake|txt)$)");
  int checked = 0;
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    for (std::sregex_iterator m(line.begin(), line.end(), code), end; m != end; ++m) {
      std::string token = (*m)[1].matched ? (*m)[1].str() : (*m)[2].str();
      token = token.substr(0, token.find(':'));  // `registry.hpp:42`
      if (token.find_first_of("<[(") != std::string::npos || token.find("NN") != std::string::npos ||
          token.starts_with("build/") || token.starts_with(".puzzle/") || token.starts_with("--") ||
          token.find("13_bias_softmax") != std::string::npos || token.find("p13") != std::string::npos) {
        continue;
      }
      CAPTURE(token);
      if (token.find('/') != std::string::npos) {
        const std::string path = token.substr(0, token.find('*'));  // `harness/judge/compare.*`: its stem
        if (token.find('*') != std::string::npos) {
          const std::filesystem::path stem = kRoot / path;
          bool found = false;
          for (const auto& entry : std::filesystem::directory_iterator(stem.parent_path())) {
            found = found || entry.path().filename().string().starts_with(stem.filename().string());
          }
          CHECK_MESSAGE(found, token << " names no file");
        } else {
          CHECK_MESSAGE(std::filesystem::exists(kRoot / path), token << " does not exist");
        }
        ++checked;
      } else if (std::regex_match(token, file_name)) {
        const std::string stem = token.substr(0, token.find('*'));
        const bool found = token.back() == '*'
                               ? std::any_of(names.begin(), names.end(),
                                             [&](const std::string& n) { return n.starts_with(stem); })
                               : names.contains(token);
        CHECK_MESSAGE(found, token << " is no file of the repository");
        ++checked;
      }
    }
  }
  CHECK(checked > 30);  // the page names the tree; a regex that matches nothing must not pass
}
