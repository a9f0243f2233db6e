// The registry is the one description of each puzzle: its stub, solution and docs page must agree
// with it, so a change to a puzzle's contract cannot leave a learner reading a stale page.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
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

}  // namespace

TEST_CASE("every puzzle's files and docs agree with the registry") {
  const std::string readme = read("README.md");
  const std::string index = read("docs/README.md");
  for (const PuzzleSpec& p : all_puzzles()) {
    CAPTURE(p.slug);
    const std::string stub = read(stub_path(p));
    const std::string solution =
        read("puzzles/" + std::filesystem::path(p.file).stem().string() + "/solutions/1_clear.cu");
    const std::string page = read(p.docs);
    const std::string page_name = std::filesystem::path(p.docs).filename().string();

    CHECK(contains(stub, p.signature));  // the launcher the harness calls, exactly
    CHECK(contains(solution, p.signature.substr(0, p.signature.find('('))));
    CHECK(contains(stub, p.docs));
    CHECK(contains(stub, "roughly " + std::to_string(p.line_budget)));
    CHECK(contains(stub, p.traffic_budget));
    CHECK(contains(stub, "./puzzle check " + std::to_string(p.id)));

    CHECK(contains(page, p.title));
    CHECK(contains(
        page, p.signature.substr(p.signature.find(' ') + 1, p.signature.find('(') - p.signature.find(' '))));
    CHECK(contains(page, "./puzzle check " + std::to_string(p.id)));
    CHECK(contains(readme, "docs/" + page_name));
    CHECK(contains(index, page_name));
  }
}
