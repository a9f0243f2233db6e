// A static check of a submission, before it is built: the process, file, exit, environment and loader
// APIs that only a file trying to forge its verdict needs (docs/grading.md, "trust boundary"). Comments and
// string literals are skipped; every use is named by its line, so that a learner sees what to remove.
#pragma once
#include <string>
#include <vector>

#include "model/check_report.hpp"

namespace puzzle::cli {

struct ApiUse {
  int line = 0;
  std::string name;     // as written, e.g. "fopen" or "std::thread"
  std::string why;      // what the harness says about it
  bool refused = true;  // false: a warning, the file still builds
};

// Every use of a refused or warned-about API in `text`, in line order.
std::vector<ApiUse> find_api_uses(const std::string& text);

// "line 12: `fopen`: ..." for one use.
std::string describe(const ApiUse& use);

// The check as a build step: ok, with warnings in `log`, or refused with every use listed.
BuildInfo check_apis(const std::string& text);

// The same rules for a symbol the compiled code refers to (demangled, without its parameters), where a
// macro cannot hide a name: why `fopen` pasted together by a macro, glibc's `__open_2` or `fread_unlocked`,
// or `std::basic_ifstream<char>::basic_ifstream` (which the scan reads as another word) is refused, or
// nullptr.
const char* refused_api_symbol(const std::string& symbol);

}  // namespace puzzle::cli
