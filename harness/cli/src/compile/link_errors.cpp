#include "compile/link_errors.hpp"

#include <cctype>

namespace puzzle::cli {

std::string function_name(std::string_view signature) {
  const auto paren = signature.find('(');
  auto end = signature.substr(0, paren).find_last_not_of(" \t");
  if (end == std::string_view::npos) return {};
  auto begin = end + 1;
  while (begin > 0 &&
         (std::isalnum(static_cast<unsigned char>(signature[begin - 1])) || signature[begin - 1] == '_')) {
    --begin;
  }
  return std::string(signature.substr(begin, end + 1 - begin));
}

std::optional<std::string> explain_link_error(std::string_view linker_output, std::string_view signature) {
  const std::string name = function_name(signature);
  if (name.empty()) return std::nullopt;
  // GNU ld: undefined reference to `row_softmax(float const*, float*, int, int)'
  for (const char* quote : {"`", "'", "\""}) {
    const std::string needle = std::string("undefined reference to ") + quote + name;
    const auto at = linker_output.find(needle);
    if (at == std::string_view::npos) continue;
    const char next = at + needle.size() < linker_output.size() ? linker_output[at + needle.size()] : '\0';
    if (next == '(' || next == '\'' || next == '`' || next == '"') {
      return "your file must define " + std::string(signature) +
             " (with exactly these parameter types); the linker found no such function";
    }
  }
  return std::nullopt;
}

}  // namespace puzzle::cli
