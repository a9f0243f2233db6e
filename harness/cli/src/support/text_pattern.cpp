#include "support/text_pattern.hpp"

#include <iterator>
#include <regex>

namespace puzzle::cli {

struct TextPattern::Compiled {
  std::regex regex;
};

namespace {

PatternMatch from(const std::cmatch& m, const char* text) {
  PatternMatch found;
  for (size_t i = 0; i < m.size(); ++i) {
    found.groups.push_back(m[i].matched ? m[i].str() : std::string());
    found.starts.push_back(m[i].matched ? static_cast<size_t>(m[i].first - text) : std::string::npos);
  }
  return found;
}

}  // namespace

TextPattern::TextPattern(const char* pattern, bool multiline)
    : compiled_(std::make_unique<Compiled>(Compiled{std::regex(
          pattern, multiline ? std::regex::ECMAScript | std::regex::multiline : std::regex::ECMAScript)})) {}

TextPattern::~TextPattern() = default;

std::optional<PatternMatch> TextPattern::search(std::string_view text) const {
  std::cmatch m;
  if (!std::regex_search(text.data(), text.data() + text.size(), m, compiled_->regex)) return std::nullopt;
  return from(m, text.data());
}

std::optional<PatternMatch> TextPattern::match(std::string_view text) const {
  std::cmatch m;
  if (!std::regex_match(text.data(), text.data() + text.size(), m, compiled_->regex)) return std::nullopt;
  return from(m, text.data());
}

std::vector<PatternMatch> TextPattern::find_all(std::string_view text) const {
  std::vector<PatternMatch> all;
  for (std::cregex_iterator m(text.data(), text.data() + text.size(), compiled_->regex), end; m != end; ++m)
    all.push_back(from(*m, text.data()));
  return all;
}

std::string TextPattern::replace(std::string_view text, std::string_view with) const {
  std::string out;
  std::regex_replace(std::back_inserter(out), text.data(), text.data() + text.size(), compiled_->regex,
                     std::string(with));
  return out;
}

}  // namespace puzzle::cli
