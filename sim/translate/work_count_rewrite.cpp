#include "work_count_rewrite.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace sim::translate {
namespace {

// What a GPU executes an instruction for: arithmetic, comparisons and logic. Indexing counts apart (an
// unrolled register tile's is free, but an array nvcc keeps in local memory costs a load or store per
// index), and loop headers not at all (a GPU unrolls most of them); function calls count where they are
// defined, and math library calls are counted by the simulator (sim/src/runtime_api/work_counting.cpp).
enum class Op { none, multiply, add, other, index };
Op operator_kind(const Token& t) {
  static constexpr std::array<std::string_view, 28> kOthers = {
      "/", "%", "++", "--", "*=", "/=", "%=", "<",   "<=",  ">=", "==", "!=", "&&", "||",
      "!", "&", "|",  "^",  "~",  "<<", ">>", "<<=", ">>=", "&=", "|=", "^=", "?",  ">"};
  if (t.kind != TokenKind::Punctuator || t.directive != 0) return Op::none;
  if (t.is("*")) return Op::multiply;
  if (t.is("[")) return Op::index;
  if (t.is("+") || t.is("-") || t.is("+=") || t.is("-=")) return Op::add;
  return std::find(kOthers.begin(), kOthers.end(), t.text) != kOthers.end() ? Op::other : Op::none;
}

// The next token of ordinary code at or after i (directive lines, such as #pragma unroll, skipped).
std::optional<size_t> code_at(const Rewriter& rw, size_t i) {
  while (i < rw.size() && rw.token(i).directive != 0) ++i;
  return i < rw.size() ? std::optional(i) : std::nullopt;
}

// The bracket that closes the `(`, `[` or `{` at `open`, across directive lines.
std::optional<size_t> close_of(const Rewriter& rw, size_t open) {
  std::string owed;
  for (size_t i = open; i < rw.size(); ++i) {
    const Token& t = rw.token(i);
    if (t.directive != 0 || t.kind != TokenKind::Punctuator) continue;
    if (t.is("(") || t.is("[") || t.is("{")) {
      owed.push_back(t.is("(") ? ')' : t.is("[") ? ']' : '}');
    } else if (t.is(")") || t.is("]") || t.is("}")) {
      if (owed.empty() || owed.back() != t.text[0]) return std::nullopt;
      owed.pop_back();
      if (owed.empty()) return i;
    }
  }
  return std::nullopt;
}

// The last token of the statement that starts at `first`: its closing brace, or its `;`.
std::optional<size_t> statement_end(const Rewriter& rw, size_t first) {
  for (std::optional<size_t> i = code_at(rw, first); i; i = code_at(rw, *i + 1)) {
    const Token& t = rw.token(*i);
    if (t.is("{") && *i == first) return close_of(rw, *i);
    if (t.is("(") || t.is("[") || t.is("{")) {
      i = close_of(rw, *i);
      if (!i) return std::nullopt;
    } else if (t.is(";")) {
      return i;
    } else if (t.is("}")) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// A region of code whose operators one count_work call counts: [first, last], the call inserted after
// token `after`.
struct Region {
  size_t first, last, after;
  size_t header_first = 0, header_last = 0;  // a loop's parentheses, whose operators do not count
  bool in_condition = false;                 // the call goes into a loop condition: `N), ` follows
  bool empty_condition = false;              // `for (init;; step)`: the condition is the call and `true`
};

// A condition that declares a variable (`while (int n = f())`) cannot take a comma expression.
bool may_hold_declaration(const Rewriter& rw, size_t first, size_t last) {
  for (size_t i = first; i < last; ++i) {
    const Token& t = rw.token(i);
    if (t.is("=") || t.is("{")) return true;
    if (t.is("(") || t.is("[")) i = close_of(rw, i).value_or(last);
  }
  return false;
}

// The first `;` at the top level of a for's parentheses (open, close).
std::optional<size_t> first_semicolon(const Rewriter& rw, size_t open, size_t close) {
  for (size_t i = open + 1; i < close; ++i) {
    const Token& t = rw.token(i);
    if (t.is("(") || t.is("[") || t.is("{")) i = close_of(rw, i).value_or(close);
    if (t.is(";")) return i;
  }
  return std::nullopt;
}

// A `for` or `while` at `keyword` (not the tail of a do-while).
std::optional<Region> loop_region(const Rewriter& rw, size_t keyword) {
  const std::optional<size_t> open = code_at(rw, keyword + 1);
  if (!open || !rw.token(*open).is("(")) return std::nullopt;
  const std::optional<size_t> close = close_of(rw, *open);
  const std::optional<size_t> body = close ? code_at(rw, *close + 1) : std::nullopt;
  if (!body) return std::nullopt;
  const std::optional<size_t> end = statement_end(rw, *body);
  if (!end) return std::nullopt;
  if (rw.token(*body).is("{")) return Region{keyword, *end, *body, *open, *close};
  // A single statement: the call goes into the condition.
  size_t after = *open, condition_end = *close;
  if (rw.token(keyword).is("for")) {
    const std::optional<size_t> semicolon = first_semicolon(rw, *open, *close);
    if (!semicolon) return std::nullopt;  // a range-based for
    after = *semicolon;
    condition_end = first_semicolon(rw, *semicolon, *close).value_or(*close);
  }
  if (may_hold_declaration(rw, after + 1, condition_end)) return std::nullopt;
  return Region{keyword, *end, after, *open, *close, true, after + 1 == condition_end};
}

// The body of a function declared at `qualifier` (__global__ or __device__), if this declaration has one.
std::optional<Region> function_region(const Rewriter& rw, size_t qualifier) {
  bool parameters = false;
  for (std::optional<size_t> i = code_at(rw, qualifier + 1); i; i = code_at(rw, *i + 1)) {
    const Token& t = rw.token(*i);
    if (t.is(";") || t.is("=") || t.is("}") || (t.is("[") && !parameters)) return std::nullopt;
    if (t.is("{")) {
      if (!parameters) return std::nullopt;
      const std::optional<size_t> close = close_of(rw, *i);
      return close ? std::optional(Region{*i, *close, *i}) : std::nullopt;
    }
    if (t.is("(")) {
      i = close_of(rw, *i);
      if (!i) return std::nullopt;
      parameters = true;
    }
  }
  return std::nullopt;
}

std::vector<Region> find_regions(const Rewriter& rw) {
  std::vector<Region> regions;
  std::vector<size_t> do_tails;  // the `while` of each do-while
  for (size_t i = 0; i < rw.size(); ++i) {
    const Token& t = rw.token(i);
    if (t.directive != 0 || t.kind != TokenKind::Identifier) continue;
    std::optional<Region> region;
    if ((t.is("for") || t.is("while")) && std::find(do_tails.begin(), do_tails.end(), i) == do_tails.end()) {
      region = loop_region(rw, i);
    } else if (t.is("do")) {
      const std::optional<size_t> body = code_at(rw, i + 1);
      const std::optional<size_t> close =
          body && rw.token(*body).is("{") ? close_of(rw, *body) : std::nullopt;
      const std::optional<size_t> tail = close ? code_at(rw, *close + 1) : std::nullopt;
      if (tail && rw.token(*tail).is("while")) {
        do_tails.push_back(*tail);
        region = Region{i, *tail, *body};
      }
    } else if (t.is("__global__") || t.is("__device__")) {
      region = function_region(rw, i);
    }
    if (region) regions.push_back(*region);
  }
  std::sort(regions.begin(), regions.end(), [](const Region& a, const Region& b) {
    return a.first != b.first ? a.first < b.first : a.last > b.last;
  });
  return regions;
}

}  // namespace

std::map<size_t, std::string> plan_work_counts(const Rewriter& rw) {
  const std::vector<Region> regions = find_regions(rw);
  // Each operator counts for the innermost region around it; a multiply and an add make one FMA.
  struct Tally {
    size_t multiplies = 0, adds = 0, others = 0, indexes = 0;
    size_t operators() const { return others + std::max(multiplies, adds); }
  };
  std::vector<Tally> tallies(regions.size());
  std::vector<size_t> open;  // indices into regions, innermost last
  size_t next = 0;
  for (size_t i = 0; i < rw.size(); ++i) {
    while (!open.empty() && regions[open.back()].last < i) open.pop_back();
    while (next < regions.size() && regions[next].first == i) open.push_back(next++);
    if (open.empty()) continue;
    const Region& inner = regions[open.back()];
    if (inner.header_last > 0 && i >= inner.header_first && i <= inner.header_last) continue;
    const Op op = operator_kind(rw.token(i));
    Tally& tally = tallies[open.back()];
    tally.multiplies += op == Op::multiply;
    tally.adds += op == Op::add;
    tally.others += op == Op::other;
    tally.indexes += op == Op::index;
  }
  std::map<size_t, std::string> inserts;
  for (size_t r = 0; r < regions.size(); ++r) {
    const Tally& t = tallies[r];
    if ((t.operators() == 0 && t.indexes == 0) || inserts.contains(regions[r].after)) continue;
    const std::string call =
        "::sim::count_work(" + std::to_string(t.operators()) + ", " + std::to_string(t.indexes) + ")";
    inserts[regions[r].after] = !regions[r].in_condition     ? " " + call + ";"
                                : regions[r].empty_condition ? " " + call + ", true"
                                                             : " " + call + ",";
  }
  return inserts;
}

}  // namespace sim::translate
