// Regular expressions (ECMAScript, std::regex) behind one source file: <regex> costs g++ about 2.5 s of
// CPU in every translation unit that instantiates it, and a first `./puzzle check` builds this library.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace puzzle::cli {

// One match: its groups (0: the whole match) and where each starts in the text searched.
struct PatternMatch {
  std::vector<std::string> groups;  // "" for a group that took no part
  std::vector<size_t> starts;       // std::string::npos for a group that took no part

  const std::string& operator[](size_t group) const { return groups.at(group); }
  size_t start(size_t group = 0) const { return starts.at(group); }
  size_t end(size_t group = 0) const { return starts.at(group) + groups.at(group).size(); }
};

class TextPattern {
 public:
  // `multiline`: ^ and $ also match at line breaks.
  explicit TextPattern(const char* pattern, bool multiline = false);
  ~TextPattern();
  TextPattern(const TextPattern&) = delete;
  TextPattern& operator=(const TextPattern&) = delete;

  // The first match anywhere in `text`.
  std::optional<PatternMatch> search(std::string_view text) const;
  // A match of the whole of `text`.
  std::optional<PatternMatch> match(std::string_view text) const;
  // Every match, left to right, none overlapping.
  std::vector<PatternMatch> find_all(std::string_view text) const;
  // `text` with every match replaced by `with` ($1 ... name groups).
  std::string replace(std::string_view text, std::string_view with) const;

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace puzzle::cli
