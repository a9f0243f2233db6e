// Splits C++/CUDA source into tokens, skipping comments, so that the rewrites never look inside
// comments or literals. Preprocessor directive lines are tokenized too, but marked as such.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace sim::translate {

enum class TokenKind { Identifier, Number, Literal, Punctuator };  // Literal: string, char or raw string

struct Token {
  TokenKind kind;
  std::string_view text;     // a view into the scanned source
  size_t offset = 0;         // of text in the source
  int line = 1;              // 1-based
  int column = 1;            // 1-based, in bytes
  int directive = 0;         // 0 in ordinary code, n inside the n-th preprocessor directive
  bool after_space = false;  // whitespace or a comment separates it from the previous token

  size_t end() const { return offset + text.size(); }
  bool is(std::string_view s) const { return text == s; }
};

// `<<<` and `>>>` are single punctuators (CUDA's launch brackets), so a `>>>` may also close nested
// templates: code that matches angle brackets must count it as three.
std::vector<Token> scan(std::string_view source);

}  // namespace sim::translate
