#include "device_variable_rewrite.hpp"

#include <string>

namespace sim::translate {
namespace {

// What may come before `__device__` in a variable's declaration.
bool is_specifier(const Token& t) {
  return t.is("__device__") || t.is("__constant__") || t.is("static") || t.is("extern") || t.is("const") ||
         t.is("volatile") || t.is("constexpr") || t.is("inline");
}
// Keywords whose parentheses belong to the declaration's attributes, not to a function's parameters.
bool takes_attribute_arguments(const Token& t) {
  return t.is("__align__") || t.is("alignas") || t.is("__attribute__") || t.is("__declspec");
}

struct Variable {
  size_t name = 0;  // the variable's name
  size_t end = 0;   // its `;`
};

// The declaration's first token, walking back over its specifiers and attributes; nullopt if something
// else comes before them (`template <...>`, `__host__`: not a variable this rewrite knows).
std::optional<size_t> declaration_start(const Rewriter& rw, size_t qualifier) {
  const Token& anchor = rw.token(qualifier);
  size_t start = qualifier;
  while (start > 0 && rw.in_region(start - 1, anchor)) {
    const Token& before = rw.token(start - 1);
    if (is_specifier(before)) {
      --start;
      continue;
    }
    std::optional<size_t> open = before.is(")") ? rw.matching_open(start - 1) : std::nullopt;
    if (!open || *open == 0 || !takes_attribute_arguments(rw.token(*open - 1))) break;
    start = *open - 1;
  }
  if (start == 0 || !rw.in_region(start - 1, anchor)) return start;
  const Token& before = rw.token(start - 1);
  if (before.is(";") || before.is("{") || before.is("}")) return start;
  return std::nullopt;
}

// The variable declared from `qualifier` on, or nullopt for a function, an extern declaration, a
// variable template or `__shared__`. Reports a declaration of several variables.
std::optional<Variable> find_variable(Rewriter& rw, size_t qualifier) {
  const Token& anchor = rw.token(qualifier);
  std::optional<size_t> first = declaration_start(rw, qualifier);
  if (!first) return std::nullopt;
  std::optional<size_t> name;
  int angles = 0;  // template argument lists open in the type
  for (size_t i = *first; rw.in_region(i, anchor); ++i) {
    const Token& t = rw.token(i);
    if (!name && t.is("<")) ++angles;
    if (!name) angles -= angle_closers(t);
    if (angles > 0) continue;
    if (t.is("extern") || t.is("__shared__") || t.is("template")) return std::nullopt;
    if (t.is("(") && !name) {
      if (i == 0 || !takes_attribute_arguments(rw.token(i - 1))) return std::nullopt;  // a function
      std::optional<size_t> close = rw.matching_close(i);
      if (!close) return std::nullopt;
      i = *close;
      continue;
    }
    const bool ends_declarator = t.is("[") || t.is("=") || t.is("{") || t.is(";") || t.is(",");
    if (ends_declarator && !name) {
      if (i == 0 || rw.token(i - 1).kind != TokenKind::Identifier) return std::nullopt;
      name = i - 1;
    }
    if (t.is(",") && name) {
      rw.error(t,
               "the simulator needs one __device__ or __constant__ variable per declaration: declare "
               "each on its own");
      return std::nullopt;
    }
    if (t.is(";")) {
      if (!name) return std::nullopt;
      return Variable{*name, i};
    }
    if (t.is("(") || t.is("[") || t.is("{")) {  // an initializer or a dimension: skip to its end
      std::optional<size_t> close = rw.matching_close(i);
      if (!close) return std::nullopt;
      i = *close;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<size_t> rewrite_device_variable(Rewriter& rw, size_t qualifier) {
  std::optional<Variable> v = find_variable(rw, qualifier);
  if (!v) return std::nullopt;
  const std::string name(rw.token(v->name).text);
  const size_t after = rw.token(v->end).end();
  if (after < rw.edited_end()) return std::nullopt;
  rw.replace(after, after,
             " static const bool " + name + "__registered = ::sim::register_device_variable(" + name + ", " +
                 quoted(name) + ");");
  return v->end + 1;
}

}  // namespace sim::translate
