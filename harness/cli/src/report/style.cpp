#include "report/style.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace puzzle::cli {

std::string Style::operator()(std::string_view text, Tone tone) const {
  if (!color_) return std::string(text);
  const char* code = "";
  switch (tone) {
    case Tone::good:
      code = "\033[32m";
      break;
    case Tone::bad:
      code = "\033[1;31m";
      break;
    case Tone::warn:
      code = "\033[33m";
      break;
    case Tone::dim:
      code = "\033[2m";
      break;
    case Tone::bold:
      code = "\033[1m";
      break;
  }
  return code + std::string(text) + "\033[0m";
}

bool color_wanted(int fd) {
  const char* no_color = std::getenv("NO_COLOR");  // https://no-color.org: set and not empty
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return isatty(fd) == 1;
}

}  // namespace puzzle::cli
