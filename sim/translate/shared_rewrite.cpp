#include "shared_rewrite.hpp"

#include <string>
#include <vector>

namespace sim::translate {
namespace {

struct Declarator {
  const Token* name = nullptr;
  std::string type;               // base type and pointer operators: `float`, `float*`
  std::vector<std::string> dims;  // what is inside each [], "" for []
};

struct Declaration {
  size_t first = 0, last = 0;  // tokens [first, last]; `last` is the `;`
  bool is_extern = false;
  std::string alignment;  // argument of __align__ / alignas, empty if none
  std::vector<Declarator> declarators;
};

bool is_alignment_keyword(const Token& t) {
  return t.is("__align__") || t.is("alignas");
}
bool is_cv_qualifier(const Token& t) {
  return t.is("const") || t.is("volatile");
}
// `__device__ __shared__` is the same as `__shared__`.
bool is_specifier(const Token& t) {
  return t.is("__shared__") || t.is("__device__") || t.is("extern") || t.is("static") || is_cv_qualifier(t);
}
bool is_pointer_operator(const Token& t) {
  return t.is("*") || is_cv_qualifier(t) || t.is("__restrict__") || t.is("__restrict");
}

// Parses `SPECIFIERS TYPE DECLARATOR, ...;` where the specifiers are `__shared__` and any of extern,
// static, __device__, const, volatile, __align__(A) and alignas(A), in any order, and a DECLARATOR is
// `[* [cv]]... NAME [DIM]...`.
class DeclarationParser {
 public:
  DeclarationParser(Rewriter& rw, size_t shared) : rw_(rw), shared_(shared) {}

  std::optional<Declaration> parse() {
    if (!find_start() || !parse_specifiers() || !parse_declarators()) return std::nullopt;
    return decl_;
  }

 private:
  bool fail(size_t at, std::string_view why) {
    rw_.error(rw_.token(in_region(at) ? at : shared_),
              "cannot translate this __shared__ declaration: " + std::string(why));
    return false;
  }
  bool in_region(size_t i) const { return rw_.in_region(i, rw_.token(shared_)); }
  bool at(std::string_view text) const { return in_region(pos_) && rw_.token(pos_).is(text); }

  // Walks back over the specifiers before `__shared__` to the start of the declaration.
  bool find_start() {
    size_t start = shared_;
    while (start > 0 && in_region(start - 1)) {
      if (is_specifier(rw_.token(start - 1))) {
        --start;
        continue;
      }
      std::optional<size_t> open = rw_.token(start - 1).is(")") ? rw_.matching_open(start - 1) : std::nullopt;
      if (!open || *open == 0 || !is_alignment_keyword(rw_.token(*open - 1))) break;
      start = *open - 1;
    }
    bool after_statement = start == 0 || !in_region(start - 1) || rw_.token(start - 1).is(";") ||
                           rw_.token(start - 1).is("{") || rw_.token(start - 1).is("}") ||
                           rw_.token(start - 1).is(":");
    if (!after_statement) return fail(shared_, "__shared__ must start the declaration, before the type");
    decl_.first = pos_ = start;
    return true;
  }

  bool parse_specifiers() {
    for (; in_region(pos_); ++pos_) {
      const Token& t = rw_.token(pos_);
      if (t.is("extern")) {
        decl_.is_extern = true;
      } else if (is_cv_qualifier(t)) {
        cv_ += std::string(t.text) + " ";
      } else if (is_alignment_keyword(t)) {
        std::optional<size_t> close = at_next("(") ? rw_.matching_close(pos_ + 1) : std::nullopt;
        if (!close) return fail(pos_, "expected '(' with the alignment after " + std::string(t.text));
        decl_.alignment = rw_.spell(pos_ + 2, *close);
        pos_ = *close;
      } else if (!is_specifier(t)) {
        return true;
      }
    }
    return fail(pos_, "unexpected end of the declaration");
  }
  bool at_next(std::string_view text) const { return in_region(pos_ + 1) && rw_.token(pos_ + 1).is(text); }

  // The type, then declarators separated by commas, up to the `;`.
  bool parse_declarators() {
    std::optional<size_t> base_end = find_base_type_end();
    if (!base_end) return false;
    if (*base_end == pos_) return fail(pos_, "expected a type before the variable name");
    std::string base_type = cv_ + rw_.spell(pos_, *base_end);
    for (pos_ = *base_end; parse_declarator(base_type); ++pos_) {
      if (at(";")) {
        decl_.last = pos_;
        return true;
      }
      if (at("=")) return fail(pos_, "a __shared__ variable cannot have an initializer");
      if (!at(",")) return fail(pos_, "expected ',' or ';' after the variable");
    }
    return false;
  }

  // The base type ends at the first declarator: its first `*`, or its name (the first identifier
  // outside template arguments that a `[`, `,`, `;` or `=` follows).
  std::optional<size_t> find_base_type_end() {
    int angles = 0;
    for (size_t i = pos_; in_region(i); ++i) {
      const Token& t = rw_.token(i);
      if (t.is("(")) {  // decltype(...), or a declarator in parentheses, which is not supported
        std::optional<size_t> close = rw_.matching_close(i);
        if (!close) break;
        i = *close;
      } else if (t.is("<")) {
        ++angles;
      } else if (int closers = angle_closers(t)) {
        angles -= closers;
      } else if (is_alignment_keyword(t)) {
        fail(i, "write " + std::string(t.text) + " before the type");
        return std::nullopt;
      } else if (angles == 0) {
        if (t.is("*")) return i;
        if (t.is("&") || t.is("&&")) {
          fail(i, "a __shared__ variable cannot be a reference");
          return std::nullopt;
        }
        if (t.is(";") || t.is("{") || t.is("}") || t.is("[") || t.is(",") || t.is("=")) break;
        if (t.kind == TokenKind::Identifier && in_region(i + 1) && is_declarator_follower(rw_.token(i + 1))) {
          return i;
        }
      }
    }
    fail(pos_, "expected a type and a variable name");
    return std::nullopt;
  }
  static bool is_declarator_follower(const Token& t) {
    return t.is("[") || t.is(",") || t.is(";") || t.is("=");
  }

  bool parse_declarator(const std::string& base_type) {
    size_t pointer_start = pos_;
    while (in_region(pos_) && is_pointer_operator(rw_.token(pos_))) ++pos_;
    if (!in_region(pos_) || rw_.token(pos_).kind != TokenKind::Identifier) {
      return fail(pos_, "expected a variable name");
    }
    const size_t name = pos_;
    Declarator d{.name = &rw_.token(name), .type = base_type + rw_.spell(pointer_start, name), .dims = {}};
    for (++pos_; at("[");) {
      std::optional<size_t> close = rw_.matching_close(pos_);
      if (!close) return fail(pos_, "unbalanced '['");
      std::string dim = rw_.spell(pos_ + 1, *close);
      // Parenthesized, a `>` cannot end shared_var's template argument list.
      d.dims.push_back(dim.find('>') == std::string::npos ? dim : "(" + dim + ")");
      pos_ = *close + 1;
    }
    bool unsized = d.dims.size() == 1 && d.dims[0].empty();
    if (decl_.is_extern && !unsized) {
      return fail(name, "extern __shared__ declares dynamic shared memory: write `extern __shared__ T " +
                            std::string(d.name->text) + "[];`");
    }
    for (const std::string& dim : d.dims) {
      if (dim.empty() && !decl_.is_extern) {
        return fail(name, "a __shared__ array needs a size (dynamic shared memory is extern __shared__)");
      }
    }
    decl_.declarators.push_back(std::move(d));
    return true;
  }

  Rewriter& rw_;
  const size_t shared_;  // the `__shared__` token
  size_t pos_ = 0;       // the next token to parse
  std::string cv_;       // cv-qualifiers among the specifiers, part of the type: "volatile "
  Declaration decl_;
};

// What each use of the variable evaluates to: a reference to the block's array, or for dynamic
// shared memory a pointer to the block's buffer.
std::string storage_expression(const Declarator& d, const Declaration& decl) {
  if (decl.is_extern) return "::sim::dynamic_shared<" + d.type + ">()";
  std::string type = d.type;
  for (const std::string& dim : d.dims) type += "[" + dim + "]";
  std::string alignment = decl.alignment.empty() ? "" : ", " + decl.alignment;
  return "::sim::shared_var<" + type + ">(" + std::string(d.name->text) + "__site_" +
         std::to_string(d.name->line) + alignment + ")";
}

// `static ::sim::SharedSite NAME__site_L{"NAME", L};` (none for dynamic shared memory)
std::string site_definition(const Declarator& d, const Declaration& decl) {
  if (decl.is_extern) return "";
  std::string line = std::to_string(d.name->line);
  return "static ::sim::SharedSite " + std::string(d.name->text) + "__site_" + line + "{" +
         quoted(d.name->text) + ", " + line + "};";
}

void append_joined(std::string& out, const std::string& piece) {
  if (piece.empty()) return;
  if (!out.empty()) out += ' ';
  out += piece;
}

// All of it on the declaration's first line, then the line breaks the declaration spanned.
std::string function_scope_code(const Rewriter& rw, const Declaration& decl) {
  std::string code;
  for (const Declarator& d : decl.declarators) {
    std::string name(d.name->text);
    append_joined(code, site_definition(d, decl));
    append_joined(code, decl.is_extern
                            ? d.type + "* const " + name + " = " + storage_expression(d, decl) + ";"
                            : "auto& " + name + " = " + storage_expression(d, decl) + ";");
  }
  return code + rw.line_breaks(rw.token(decl.first).offset, rw.token(decl.last).end());
}

// A macro per variable (each use must find the current block's storage), then a #line directive that
// puts the rest of the declaration's last line back on its number.
std::string namespace_scope_code(const Rewriter& rw, const Declaration& decl) {
  std::string code;
  for (const Declarator& d : decl.declarators) append_joined(code, site_definition(d, decl));
  for (const Declarator& d : decl.declarators) {
    code += "\n#define " + std::string(d.name->text) + " (" + storage_expression(d, decl) + ")";
  }
  return code + "\n" + rw.line_directive(rw.token(decl.last).line) + "\n";
}

}  // namespace

std::optional<size_t> rewrite_shared(Rewriter& rw, size_t shared, bool at_namespace_scope) {
  std::optional<Declaration> decl = DeclarationParser(rw, shared).parse();
  if (!decl) return std::nullopt;
  std::string code = at_namespace_scope ? namespace_scope_code(rw, *decl) : function_scope_code(rw, *decl);
  rw.replace(rw.token(decl->first).offset, rw.token(decl->last).end(), std::move(code));
  return decl->last + 1;
}

}  // namespace sim::translate
