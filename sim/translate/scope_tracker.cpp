#include "scope_tracker.hpp"

#include <algorithm>

namespace sim::translate {
namespace {

// `namespace a::b {`, `inline namespace v1 {`, `namespace {` or `extern "C" {`.
bool opens_namespace(const Rewriter& rw, size_t brace) {
  const Token& anchor = rw.token(brace);
  if (brace >= 2 && rw.in_region(brace - 2, anchor) && rw.token(brace - 1).kind == TokenKind::Literal &&
      rw.token(brace - 2).is("extern")) {
    return true;
  }
  for (size_t i = brace; i > 0 && rw.in_region(i - 1, anchor); --i) {
    const Token& t = rw.token(i - 1);
    if (t.is("namespace")) return true;
    if (t.kind != TokenKind::Identifier && !t.is("::")) return false;
  }
  return false;
}

}  // namespace

void ScopeTracker::on_brace(const Rewriter& rw, size_t brace) {
  if (rw.token(brace).is("{")) {
    open_.push_back(opens_namespace(rw, brace));
  } else if (!open_.empty()) {  // an unbalanced `}` is g++'s to report
    open_.pop_back();
  }
}

void ScopeTracker::on_directive(std::string_view name) {
  if (name == "if" || name == "ifdef" || name == "ifndef") {
    at_if_.push_back(open_);
  } else if (at_if_.empty()) {
    return;
  } else if (name == "elif" || name == "elifdef" || name == "elifndef" || name == "else") {
    open_ = at_if_.back();
  } else if (name == "endif") {
    at_if_.pop_back();
  }
}

bool ScopeTracker::at_namespace_scope() const {
  return std::all_of(open_.begin(), open_.end(), [](bool is_namespace) { return is_namespace; });
}

}  // namespace sim::translate
