#include "rewriter.hpp"

#include <cassert>

namespace sim::translate {
namespace {

char closer_of(std::string_view open) {
  if (open == "(") return ')';
  if (open == "[") return ']';
  if (open == "{") return '}';
  return 0;
}

char opener_of(std::string_view close) {
  if (close == ")") return '(';
  if (close == "]") return '[';
  if (close == "}") return '{';
  return 0;
}

}  // namespace

Rewriter::Rewriter(std::string_view source, std::string_view path)
    : source_(source), path_(path), tokens_(scan(source)) {}

std::optional<size_t> Rewriter::matching_close(size_t open) const {
  std::string expected;  // closers still owed, innermost last
  for (size_t i = open; in_region(i, tokens_[open]); ++i) {
    std::string_view t = tokens_[i].text;
    if (char c = closer_of(t)) {
      expected.push_back(c);
    } else if (opener_of(t)) {
      if (expected.empty() || expected.back() != t[0]) return std::nullopt;
      expected.pop_back();
      if (expected.empty()) return i;
    }
  }
  return std::nullopt;
}

std::optional<size_t> Rewriter::matching_open(size_t close) const {
  std::string expected;  // openers still owed, innermost last
  for (size_t i = close + 1; i-- > 0 && in_region(i, tokens_[close]);) {
    std::string_view t = tokens_[i].text;
    if (char c = opener_of(t)) {
      expected.push_back(c);
    } else if (closer_of(t)) {
      if (expected.empty() || expected.back() != t[0]) return std::nullopt;
      expected.pop_back();
      if (expected.empty()) return i;
    }
  }
  return std::nullopt;
}

std::string Rewriter::spell(size_t first, size_t last) const {
  std::string out;
  for (size_t i = first; i < last; ++i) {
    if (i > first && tokens_[i].after_space) out += ' ';
    out += tokens_[i].text;
  }
  return out;
}

std::string Rewriter::line_breaks(size_t begin, size_t end) const {
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    if (source_[i] != '\n') continue;
    bool spliced =
        (i >= 1 && source_[i - 1] == '\\') || (i >= 2 && source_[i - 1] == '\r' && source_[i - 2] == '\\');
    out += spliced ? "\\\n" : "\n";
  }
  return out;
}

std::string Rewriter::line_directive(int line) const {
  return "#line " + std::to_string(line) + " " + quoted(path_);
}

void Rewriter::replace(size_t begin, size_t end, std::string text) {
  assert(edits_.empty() || edits_.back().end <= begin);
  edits_.push_back(Edit{begin, end, std::move(text)});
}

void Rewriter::error(const Token& at, std::string_view message) {
  errors_.push_back(path_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                    ": error: " + std::string(message));
}

std::string Rewriter::result() const {
  std::string out = line_directive(1) + "\n";
  size_t copied = 0;
  for (const Edit& e : edits_) {
    out.append(source_.substr(copied, e.begin - copied));
    out += e.text;
    copied = e.end;
  }
  out.append(source_.substr(copied));
  return out;
}

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

int angle_closers(const Token& t) {
  if (t.kind != TokenKind::Punctuator || t.text.find_first_not_of('>') != std::string_view::npos) return 0;
  return static_cast<int>(t.text.size());
}

}  // namespace sim::translate
