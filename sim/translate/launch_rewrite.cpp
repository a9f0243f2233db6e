#include "launch_rewrite.hpp"

#include <string>

namespace sim::translate {
namespace {

// The `<` that opens the template argument list whose last token is `close` (a `>`, `>>` or `>>>`).
std::optional<size_t> template_arguments_start(const Rewriter& rw, size_t close) {
  int depth = 0;  // `>` not yet matched
  for (size_t i = close + 1; i-- > 0 && rw.in_region(i, rw.token(close));) {
    const Token& t = rw.token(i);
    if (t.is(")") || t.is("]")) {
      std::optional<size_t> open = rw.matching_open(i);
      if (!open) return std::nullopt;
      i = *open;
    } else if (int closers = angle_closers(t)) {
      depth += closers;
    } else if (t.is("<")) {
      if (--depth == 0) return i;
    } else if (t.is(";") || t.is("{") || t.is("}")) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// The first token of the kernel expression that ends just before `<<<`: a name, possibly qualified,
// where each part may carry template arguments (`ns::kern<float, 256>`, `::kern`, `Outer<T>::kern`).
std::optional<size_t> kernel_expression_start(const Rewriter& rw, size_t open) {
  // Token i exists, belongs to the launch's region and has not been rewritten yet.
  auto usable = [&](size_t i) {
    return rw.in_region(i, rw.token(open)) && rw.token(i).offset >= rw.edited_end();
  };
  size_t start = open;  // the expression is tokens [start, open)
  for (;;) {
    if (start == 0 || !usable(start - 1)) return std::nullopt;
    if (angle_closers(rw.token(start - 1)) > 0) {
      std::optional<size_t> less = template_arguments_start(rw, start - 1);
      if (!less) return std::nullopt;
      start = *less;
    }
    if (start == 0 || !usable(start - 1) || rw.token(start - 1).kind != TokenKind::Identifier) {
      return std::nullopt;
    }
    --start;
    if (start > 0 && usable(start - 1) && rw.token(start - 1).is("template")) --start;
    if (start == 0 || !usable(start - 1) || !rw.token(start - 1).is("::")) return start;
    --start;  // the `::`; what precedes it is a qualifier, or nothing for a global `::kern`
    bool qualifier =
        start > 0 && usable(start - 1) &&
        (rw.token(start - 1).kind == TokenKind::Identifier || angle_closers(rw.token(start - 1)));
    if (!qualifier) return start;
  }
}

// The `>>>` that closes the configuration opened at `open`.
std::optional<size_t> configuration_end(const Rewriter& rw, size_t open) {
  for (size_t i = open + 1; rw.in_region(i, rw.token(open)); ++i) {
    const Token& t = rw.token(i);
    if (t.is(">>>")) return i;
    if (t.is("(") || t.is("[") || t.is("{")) {
      std::optional<size_t> close = rw.matching_close(i);
      if (!close) return std::nullopt;
      i = *close;
    } else if (t.is(";") || t.is(")") || t.is("]") || t.is("}")) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<size_t> rewrite_launch(Rewriter& rw, size_t open) {
  const Token& open_token = rw.token(open);
  std::optional<size_t> start = kernel_expression_start(rw, open);
  if (!start) {
    rw.error(open_token, "expected a kernel name before '<<<'");
    return std::nullopt;
  }
  std::optional<size_t> close = configuration_end(rw, open);
  if (!close) {
    rw.error(open_token, "'<<<' without a matching '>>>'");
    return std::nullopt;
  }
  const Token& close_token = rw.token(*close);
  const size_t args = *close + 1;
  if (!rw.in_region(args, open_token) || !rw.token(args).is("(")) {
    rw.error(close_token, "expected '(' with the kernel arguments after '>>>'");
    return std::nullopt;
  }
  std::optional<size_t> args_end = rw.matching_close(args);
  if (!args_end) {
    rw.error(rw.token(args), "unbalanced '(' in the kernel arguments");
    return std::nullopt;
  }

  const size_t begin = rw.token(*start).offset;
  const size_t end = rw.token(*args_end).end();
  const std::string kernel = rw.spell(*start, open);
  std::string code = "::sim::launch(::sim::LaunchConfig(";
  code += rw.line_breaks(begin, open_token.offset);
  code += rw.source_text(open_token.end(), close_token.offset);
  code += "), " + quoted(kernel) + ", [=]() { ";
  code += rw.line_breaks(close_token.end(), rw.token(args).offset);
  code += kernel;
  code += rw.source_text(rw.token(args).offset, end);
  code += "; })";
  rw.replace(begin, end, std::move(code));
  return *args_end + 1;
}

}  // namespace sim::translate
