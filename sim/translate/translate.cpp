#include "translate.hpp"

#include "asm_rewrite.hpp"
#include "launch_rewrite.hpp"
#include "rewriter.hpp"
#include "scope_tracker.hpp"
#include "shared_rewrite.hpp"

namespace sim {

TranslateResult translate_cuda(std::string_view source, std::string_view path) {
  translate::Rewriter rw(source, path);
  translate::ScopeTracker scope;
  std::string_view directive;  // name of the directive being read, empty in ordinary code
  for (size_t i = 0; i < rw.size();) {
    const translate::Token& t = rw.token(i);
    const bool starts_directive = t.directive != 0 && (i == 0 || rw.token(i - 1).directive != t.directive);
    if (starts_directive) {
      directive = rw.in_region(i + 1, t) ? rw.token(i + 1).text : "";
      scope.on_directive(directive);
    } else if (t.directive == 0) {
      directive = "";
    }

    std::optional<size_t> next;
    if (t.is("<<<") && !(i > 0 && rw.token(i - 1).is("operator"))) {
      next = rewrite_launch(rw, i);
    } else if (is_asm_keyword(t) && directive == "define") {
      rw.error(t, "asm in a macro is not supported by the simulator: write the asm statement in a function");
    } else if (is_asm_keyword(t) && t.directive == 0) {
      next = rewrite_asm(rw, i);
    } else if (t.is("__shared__") && directive == "define") {
      // g++ would see whatever sim/include makes of __shared__, never the per-block storage.
      rw.error(t, "__shared__ in a macro is not supported by the simulator: declare the variable directly");
    } else if (t.is("__shared__") && t.directive == 0) {
      next = rewrite_shared(rw, i, scope.at_namespace_scope());
    } else if ((t.is("{") || t.is("}")) && t.directive == 0) {
      scope.on_brace(rw, i);
    }
    i = next.value_or(i + 1);
  }
  return TranslateResult{rw.result(), rw.errors()};
}

}  // namespace sim
