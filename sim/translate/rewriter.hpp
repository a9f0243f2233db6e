// What the rewrites share: the tokens of one source file, the edits made to it, the errors found in it,
// and helpers to navigate tokens and to spell generated code.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scanner.hpp"

namespace sim::translate {

class Rewriter {
 public:
  Rewriter(std::string_view source, std::string_view path);

  const std::vector<Token>& tokens() const { return tokens_; }
  const Token& token(size_t i) const { return tokens_[i]; }
  size_t size() const { return tokens_.size(); }
  // Whether token i exists and lies in the same line region (code or one directive) as `anchor`.
  bool in_region(size_t i, const Token& anchor) const {
    return i < tokens_.size() && tokens_[i].directive == anchor.directive;
  }

  // The index of the bracket that closes the `(`, `[` or `{` at `open`, within its region.
  std::optional<size_t> matching_close(size_t open) const;
  // The index of the bracket that opens the `)` or `]` at `close`, within its region.
  std::optional<size_t> matching_open(size_t close) const;

  std::string_view source_text(size_t begin, size_t end) const { return source_.substr(begin, end - begin); }
  // Tokens [first, last) as one line of code: comments and whitespace become one space.
  std::string spell(size_t first, size_t last) const;
  // The line breaks of source[begin, end), with their line splices: what an edit must keep so that
  // the lines after it keep their numbers.
  std::string line_breaks(size_t begin, size_t end) const;
  // `#line N "path"` (without a newline): the next line is line N of the learner's file.
  std::string line_directive(int line) const;

  // Replaces source[begin, end); edits must come in source order and not overlap.
  void replace(size_t begin, size_t end, std::string text);
  // Where the last edit ends: a rewrite must not reach back before it.
  size_t edited_end() const { return edits_.empty() ? 0 : edits_.back().end; }
  void error(const Token& at, std::string_view message);

  // The source with every edit applied, after a `#line 1` directive.
  std::string result() const;
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  struct Edit {
    size_t begin, end;
    std::string text;
  };

  std::string_view source_;
  std::string path_;
  std::vector<Token> tokens_;
  std::vector<Edit> edits_;
  std::vector<std::string> errors_;
};

// `text` as a C++ string literal.
std::string quoted(std::string_view text);
// The number of `>` a token closes in a template argument list: 1, 2 or 3 for `>`, `>>`, `>>>`.
int angle_closers(const Token& t);

}  // namespace sim::translate
