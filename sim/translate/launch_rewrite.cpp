#include "launch_rewrite.hpp"

#include <cctype>
#include <string>
#include <utility>
#include <vector>

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

// The kernel arguments between the parentheses at `open` and `close`, split at their top-level commas
// (a comma in a template argument list splits too: only whole arguments below are looked at).
std::vector<std::pair<size_t, size_t>> argument_tokens(const Rewriter& rw, size_t open, size_t close) {
  std::vector<std::pair<size_t, size_t>> arguments;
  size_t first = open + 1;
  for (size_t i = open + 1; i < close; ++i) {
    const Token& t = rw.token(i);
    if (t.is("(") || t.is("[") || t.is("{")) {
      i = rw.matching_close(i).value_or(close - 1);
    } else if (t.is(",")) {
      arguments.emplace_back(first, i);
      first = i + 1;
    }
  }
  if (first < close) arguments.emplace_back(first, close);
  return arguments;
}

// The arguments as ::sim::launch_with_arguments takes them, evaluated once: a lone `0` or `NULL` (a null
// pointer to CUDA as much as a zero) becomes ::sim::zero_argument, which converts to either. nullopt when
// an argument is a braced list, which has no type of its own: then each simulated thread evaluates them.
std::optional<std::string> evaluated_once(const Rewriter& rw, size_t open, size_t close) {
  std::string text;
  for (auto [first, last] : argument_tokens(rw, open, close)) {
    if (rw.token(first).is("{")) return std::nullopt;
    // From after the `(` or `,` before it to its `,` or `)`: the spacing, line breaks and comments stay.
    const size_t begin = rw.token(first - 1).end(), end = rw.token(last).offset;
    std::string spelled(rw.source_text(begin, end));
    const Token& only = rw.token(first);
    if (last == first + 1 && (only.is("0") || only.is("NULL")))
      spelled.replace(only.offset - begin, only.text.size(), "::sim::zero_argument");
    text += text.empty() && !spelled.empty() && !std::isspace(static_cast<unsigned char>(spelled[0])) ? ", "
                                                                                                      : ",";
    text += spelled;
  }
  return text;
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
  const std::optional<std::string> arguments = evaluated_once(rw, args, *args_end);
  std::string code =
      arguments ? "::sim::launch_with_arguments(::sim::LaunchConfig(" : "::sim::launch(::sim::LaunchConfig(";
  code += rw.line_breaks(begin, open_token.offset);
  code += rw.source_text(open_token.end(), close_token.offset);
  code += "), " + quoted(kernel) + ", [=](";
  code += arguments ? "const auto&... sim_args) { " : ") { ";
  code += rw.line_breaks(close_token.end(), rw.token(args).offset);
  code += kernel;
  code += arguments ? "(sim_args...); }" + *arguments + ")"
                    : std::string(rw.source_text(rw.token(args).offset, end)) + "; })";
  rw.replace(begin, end, std::move(code));
  return *args_end + 1;
}

}  // namespace sim::translate
