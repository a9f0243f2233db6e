#include "asm_rewrite.hpp"

#include <string>
#include <vector>

#include "ptx_syntax.hpp"

namespace sim::translate {
namespace {

// The text of a string literal token, escapes decoded (the ones PTX templates use).
std::string literal_text(std::string_view token) {
  std::string text;
  const size_t open = token.find('"');
  for (size_t i = open + 1; i + 1 < token.size(); ++i) {
    if (token[i] != '\\' || i + 2 >= token.size()) {
      text += token[i];
      continue;
    }
    const char e = token[++i];
    text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
  }
  return text;
}

struct Section {  // the tokens between two top-level ':' of the statement: [first, last)
  size_t first, last;
};

// Splits the statement's parentheses (open, close) at top-level ':' (a '::' token counts twice).
std::vector<Section> sections(const Rewriter& rw, size_t open, size_t close) {
  std::vector<Section> parts{{open + 1, close}};
  for (size_t i = open + 1; i < close; ++i) {
    const Token& t = rw.token(i);
    if (t.is("(") || t.is("[") || t.is("{")) {
      i = rw.matching_close(i).value_or(close);
    } else if (t.is(":") || t.is("::")) {
      parts.back().last = i;
      if (t.is("::")) parts.push_back({i, i});
      parts.push_back({i + 1, close});
    }
  }
  return parts;
}

}  // namespace

bool is_asm_keyword(const Token& t) {
  return t.is("asm") || t.is("__asm") || t.is("__asm__");
}

std::optional<size_t> rewrite_asm(Rewriter& rw, size_t keyword) {
  const Token& at = rw.token(keyword);
  size_t open = keyword + 1;
  while (rw.in_region(open, at) &&
         (rw.token(open).is("volatile") || rw.token(open).is("__volatile__") || rw.token(open).is("inline")))
    ++open;
  if (!rw.in_region(open, at) || !rw.token(open).is("(")) {
    rw.error(at, "expected '(' after asm");
    return std::nullopt;
  }
  const std::optional<size_t> close = rw.matching_close(open);
  if (!close) {
    rw.error(at, "unbalanced '(' in the asm statement");
    return std::nullopt;
  }
  const std::vector<Section> parts = sections(rw, open, *close);
  std::string text;
  for (size_t i = parts[0].first; i < parts[0].last; ++i) {
    if (rw.token(i).kind != TokenKind::Literal) {
      rw.error(rw.token(i), "the simulator reads asm templates written as string literals only");
      return std::nullopt;
    }
    text += literal_text(rw.token(i).text);
  }
  const ptx::Parsed parsed = ptx::parse(text);
  if (!parsed.error.empty()) {
    rw.error(at, parsed.error);
    return std::nullopt;
  }
  // The operands of the output and input sections, in %n order; clobbers (a fourth section) go.
  std::string operands;
  for (size_t s = 1; s < parts.size() && s < 3; ++s) {
    for (size_t i = parts[s].first; i < parts[s].last; ++i) {
      const Token& constraint = rw.token(i);
      if (constraint.is(",")) continue;
      std::optional<size_t> expression_end;
      if (constraint.kind == TokenKind::Literal && rw.in_region(i + 1, at) && rw.token(i + 1).is("("))
        expression_end = rw.matching_close(i + 1);
      const std::string letters = literal_text(constraint.text);
      const size_t letter = letters.find_first_not_of("=+&");
      if (!expression_end || letter == std::string::npos) {
        rw.error(constraint, "expected an asm operand: \"constraint\"(expression)");
        return std::nullopt;
      }
      const char* kind = letters.find('+') != std::string::npos   ? "in_out"
                         : letters.find('=') != std::string::npos ? "output"
                                                                  : "input";
      if (!operands.empty()) operands += ", ";
      operands += std::string("::sim::ptx::") + kind + "<'" + letters[letter] + "'>(" +
                  rw.spell(i + 2, *expression_end) + ")";
      i = *expression_end;
    }
  }
  rw.replace(at.offset, rw.token(open).end(), "::sim::ptx::execute(");
  // From the first ':' to the ')': the operand list, then the line breaks it covered.
  const size_t begin = parts.size() > 1 ? rw.token(parts[0].last).offset : rw.token(*close).offset;
  const size_t end = rw.token(*close).offset;
  rw.replace(begin, end, ", {" + operands + "}" + rw.line_breaks(begin, end));
  return *close + 1;
}

}  // namespace sim::translate
