// A C++ symbol as source code spells it (the compiler's ABI demangler), for messages and nvcc's reports.
#pragma once
#include <string>

namespace puzzle::cli {

// `symbol` demangled, or as given when it is not a mangled name.
std::string demangled(const std::string& symbol);

// A demangled name without its template arguments: std::basic_ifstream<char, ...>::open ->
// std::basic_ifstream::open. An operator's name is returned as it is (its `<` opens no arguments).
std::string without_template_arguments(const std::string& name);

}  // namespace puzzle::cli
