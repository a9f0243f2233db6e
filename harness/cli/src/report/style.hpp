// Colour for the console: on a terminal only, never when NO_COLOR is set or TERM=dumb. Colour only
// emphasises; every status is also spelled out in words.
#pragma once
#include <string>
#include <string_view>

namespace puzzle::cli {

enum class Tone { good, bad, warn, dim, bold };

class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  std::string operator()(std::string_view text, Tone tone) const;
  bool color() const { return color_; }

 private:
  bool color_;
};

// Whether output to `fd` should be coloured, from isatty(fd), NO_COLOR and TERM.
bool color_wanted(int fd);

}  // namespace puzzle::cli
