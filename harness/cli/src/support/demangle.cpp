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

}  // namespace puzzle::cli
