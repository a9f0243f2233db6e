#include "scanner.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace sim::translate {
namespace {

bool is_identifier_char(char c) {
  // Bytes >= 0x80 are parts of UTF-8 identifiers.
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Longest first: the scanner takes the first one that matches.
constexpr std::array<std::string_view, 29> kPunctuators = {
    "<<<", ">>>", "<<=", ">>=", "<=>", "->*", "...", "::", "<<", ">>", "<=", ">=", "->", "==", "!=",
    "&&",  "||",  "++",  "--",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", ".*", "##"};

class Scanner {
 public:
  explicit Scanner(std::string_view source) : src_(source) {}

  std::vector<Token> run() {
    while (skip_space_and_comments()) lex_token();
    return std::move(tokens_);
  }

 private:
  char peek(size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }

  // Moves to `target`, counting the newlines passed over.
  void advance_to(size_t target) {
    target = std::min(target, src_.size());
    for (; pos_ < target; ++pos_) {
      if (src_[pos_] == '\n') {
        ++line_;
        line_start_ = pos_ + 1;
      }
    }
  }

  // Length of a backslash-newline line splice at pos_ + ahead, or 0.
  size_t splice_length(size_t ahead = 0) const {
    if (peek(ahead) != '\\') return 0;
    if (peek(ahead + 1) == '\n') return 2;
    if (peek(ahead + 1) == '\r' && peek(ahead + 2) == '\n') return 3;
    return 0;
  }

  // Returns false at the end of the source. A newline that is not spliced ends a directive.
  bool skip_space_and_comments() {
    space_ = false;
    while (pos_ < src_.size()) {
      char c = peek();
      if (c == '\n') {
        advance_to(pos_ + 1);
        directive_ = 0;
        at_line_start_ = true;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (size_t splice = splice_length()) {
        advance_to(pos_ + splice);
      } else if (c == '/' && peek(1) == '/') {
        while (pos_ < src_.size() && peek() != '\n') advance_to(pos_ + std::max<size_t>(splice_length(), 1));
      } else if (c == '/' && peek(1) == '*') {
        size_t close = src_.find("*/", pos_ + 2);
        advance_to(close == std::string_view::npos ? src_.size() : close + 2);
      } else {
        return true;
      }
      space_ = true;
    }
    return false;
  }

  void lex_token() {
    const size_t start = pos_;
    const int line = line_;
    const int column = static_cast<int>(start - line_start_) + 1;
    if (peek() == '#' && at_line_start_) directive_ = ++directives_;
    at_line_start_ = false;

    TokenKind kind = lex_one();
    tokens_.push_back(Token{.kind = kind,
                            .text = src_.substr(start, pos_ - start),
                            .offset = start,
                            .line = line,
                            .column = column,
                            .directive = directive_,
                            .after_space = space_});
  }

  TokenKind lex_one() {
    char c = peek();
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
      lex_number();
      return TokenKind::Number;
    }
    if (is_identifier_char(c)) {
      size_t start = pos_;
      while (is_identifier_char(peek())) ++pos_;
      std::string_view word = src_.substr(start, pos_ - start);
      if (peek() == '"' && is_raw_string_prefix(word)) {
        lex_raw_string();
        return TokenKind::Literal;
      }
      if ((peek() == '"' || peek() == '\'') && is_encoding_prefix(word)) {
        lex_quoted();
        return TokenKind::Literal;
      }
      return TokenKind::Identifier;
    }
    if (c == '"' || c == '\'') {
      lex_quoted();
      return TokenKind::Literal;
    }
    for (std::string_view p : kPunctuators) {
      if (src_.substr(pos_, p.size()) == p) {
        pos_ += p.size();
        return TokenKind::Punctuator;
      }
    }
    ++pos_;
    return TokenKind::Punctuator;
  }

  static bool is_encoding_prefix(std::string_view w) { return w == "L" || w == "u" || w == "U" || w == "u8"; }
  static bool is_raw_string_prefix(std::string_view w) {
    return w == "R" || w == "LR" || w == "uR" || w == "UR" || w == "u8R";
  }

  // A pp-number: digits, letters, '.', exponent signs and digit separators (1'000 is one number).
  void lex_number() {
    ++pos_;
    for (;;) {
      char c = peek();
      bool exponent_sign =
          (c == '+' || c == '-') && std::string_view("eEpP").find(src_[pos_ - 1]) != std::string_view::npos;
      bool separator = c == '\'' && is_identifier_char(peek(1));
      if (is_identifier_char(c) || c == '.' || exponent_sign || separator) {
        ++pos_;
      } else {
        return;
      }
    }
  }

  // A "string" or 'char' literal with escapes; an unterminated one ends before the newline.
  void lex_quoted() {
    const char quote = peek();
    size_t i = pos_ + 1;
    while (i < src_.size() && src_[i] != quote && src_[i] != '\n') i += src_[i] == '\\' ? 2 : 1;
    if (i < src_.size() && src_[i] == quote) ++i;
    advance_to(i);
    skip_literal_suffix();
  }

  // R"delim( ... )delim"; pos_ is at the opening quote.
  void lex_raw_string() {
    size_t open_paren = src_.find('(', pos_);
    if (open_paren == std::string_view::npos) {
      advance_to(src_.size());
      return;
    }
    std::string closing = ")" + std::string(src_.substr(pos_ + 1, open_paren - pos_ - 1)) + "\"";
    size_t close = src_.find(closing, open_paren);
    advance_to(close == std::string_view::npos ? src_.size() : close + closing.size());
    skip_literal_suffix();
  }

  void skip_literal_suffix() {  // user-defined literal suffix: "abc"_s
    while (is_identifier_char(peek())) ++pos_;
  }

  std::string_view src_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
  bool at_line_start_ = true;  // no token yet on this logical line: a '#' here starts a directive
  bool space_ = false;
  int directive_ = 0;
  int directives_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> scan(std::string_view source) {
  return Scanner(source).run();
}

}  // namespace sim::translate
