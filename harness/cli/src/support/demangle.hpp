// A C++ symbol as source code spells it (the compiler's ABI demangler), for messages and nvcc's reports.
#pragma once
#include <string>

namespace puzzle::cli {

// `symbol` demangled, or as given when it is not a mangled name.
std::string demangled(const std::string& symbol);

}  // namespace puzzle::cli
