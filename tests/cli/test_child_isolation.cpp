// Judging happens in the parent only: a child draws inputs and calls the learner's launcher, and the
// references, comparison, verdict and diagnoses (puzzle_judge, harness/judge) are never linked into it.
// Checked on the libraries the build driver really links a child with (child_libraries), for every
// puzzle and backend: none of them may define or use a symbol that puzzle_judge defines.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "compile/build_commands.hpp"
#include "model/build_config.hpp"
#include "registry.hpp"
#include "support/subprocess.hpp"

using namespace puzzle;
using namespace puzzle::cli;

namespace {

struct Symbols {
  std::set<std::string> defined;  // strong definitions only: inline functions and templates are everyone's
  std::set<std::string> all;      // defined or used (undefined)
};

// The global symbols of a library, mangled, from `nm --format=posix` ("name type [value size]" per line).
Symbols symbols_of(const std::filesystem::path& library) {
  const CapturedRun nm = run_captured({"nm", "-g", "--format=posix", library.string()});
  REQUIRE_MESSAGE(nm.status.ok(), "nm failed on " << library.string() << ":\n" << nm.output);
  Symbols symbols;
  std::istringstream lines(nm.output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, type;
    if (!(fields >> name >> type) || name.back() == ':' || type.size() != 1) continue;  // "lib.a[x.o]:"
    symbols.all.insert(name);
    if (type == "T" || type == "D" || type == "B" || type == "R") symbols.defined.insert(name);
  }
  return symbols;
}

// The symbols of `library` that the judge defines.
std::set<std::string> judge_symbols_in(const std::filesystem::path& library,
                                       const std::set<std::string>& judge) {
  std::set<std::string> found;
  for (const std::string& name : symbols_of(library).all) {
    if (judge.contains(name)) found.insert(name);
  }
  return found;
}

}  // namespace

TEST_CASE("no child library defines or uses the judge's symbols") {
  const std::set<std::string> judge = symbols_of(PUZZLE_JUDGE_LIBRARY).defined;
  REQUIRE(judge.size() > 20);  // the references, compare, verdict, diagnoses
  // The check can fail: the parent's library uses the judge.
  CHECK_FALSE(judge_symbols_in(PUZZLE_CLI_LIBRARY, judge).empty());

  const BuildConfig& config = build_config();
  std::vector<Backend> backends = {Backend::sim};
  if (config.have_cuda) backends.push_back(Backend::gpu);
  std::set<std::filesystem::path> checked;
  for (const Backend backend : backends) {
    for (const PuzzleSpec& puzzle : all_puzzles()) {
      for (const auto& library : child_libraries(config, backend, puzzle.id)) {
        if (!checked.insert(library).second) continue;
        const std::set<std::string> found = judge_symbols_in(library, judge);
        CHECK_MESSAGE(found.empty(), library.string() << " links the judge: " << *found.begin() << " and "
                                                      << found.size() - 1 << " more");
      }
    }
  }
  CHECK(checked.size() >= all_puzzles().size() + 2);  // every entry, the core, a runner
}
