// Knows whether a point of the file is at namespace scope (inside nothing but namespace and
// extern "C" braces) or inside code (a function body, a class, an initializer).
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

#include "rewriter.hpp"

namespace sim::translate {

class ScopeTracker {
 public:
  // Call for every `{` and `}` of ordinary code (not of directives), in order.
  void on_brace(const Rewriter& rw, size_t brace);
  // Call for every directive name (`if`, `else`, `endif`, `define`, ...), in order. Each branch of an
  // #if starts from the braces open at the #if, so that `#if A void f() { #else void f(int) { #endif`
  // opens one brace, not two.
  void on_directive(std::string_view name);

  bool at_namespace_scope() const;

 private:
  std::vector<bool> open_;                // per open brace: true for namespace or extern "C"
  std::vector<std::vector<bool>> at_if_;  // open_ at each enclosing #if
};

}  // namespace sim::translate
