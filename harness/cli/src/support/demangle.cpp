#include "support/demangle.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace puzzle::cli {

std::string demangled(const std::string& symbol) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text ? text.get() : symbol;
}

std::string without_template_arguments(const std::string& name) {
  if (name.find("operator") != std::string::npos) return name;
  std::string plain;
  int depth = 0;
  for (char c : name) {
    if (c == '<') ++depth;
    if (depth == 0) plain += c;
    if (c == '>' && depth > 0) --depth;
  }
  return plain;
}

}  // namespace puzzle::cli
