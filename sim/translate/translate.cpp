#include "translate.hpp"

#include "asm_rewrite.hpp"
#include "device_variable_rewrite.hpp"
#include "launch_rewrite.hpp"
#include "rewriter.hpp"
#include "scope_tracker.hpp"
#include "shared_rewrite.hpp"
#include "work_count_rewrite.hpp"

namespace sim {

namespace {

// Libraries built on CUDA that the simulator does not model: an include of one is an error saying so.
bool unmodelled_library(const translate::Rewriter& rw, size_t include) {
  const translate::Token& directive = rw.token(include);
  if (!rw.in_region(include + 2, directive)) return false;
  const translate::Token& open = rw.token(include + 1);
  const translate::Token& first = rw.token(include + 2);
  if (open.is("<")) return first.is("cub") || first.is("thrust") || first.is("cutlass") || first.is("cute");
  // "cub/cub.cuh" is one string literal token
  return open.kind == translate::TokenKind::Literal &&
         (open.text.starts_with("\"cub/") || open.text.starts_with("\"thrust/"));
}

}  // namespace

TranslateResult translate_cuda(std::string_view source, std::string_view path, bool count_work) {
  // A UTF-8 byte-order mark (some editors save one) is no part of the code: nvcc skips it too.
  if (source.starts_with("\xEF\xBB\xBF")) source.remove_prefix(3);
  translate::Rewriter rw(source, path);
  translate::ScopeTracker scope;
  std::string_view directive;  // name of the directive being read, empty in ordinary code
  const std::map<size_t, std::string> work_counts =
      count_work ? translate::plan_work_counts(rw) : std::map<size_t, std::string>{};
  for (size_t i = 0; i < rw.size();) {
    const translate::Token& t = rw.token(i);
    // After token i, unless a rewrite covered it: a count_work call (the speed estimate's).
    if (const auto count = work_counts.find(i); count != work_counts.end() && t.offset >= rw.edited_end())
      rw.replace(t.end(), t.end(), count->second);
    const bool starts_directive = t.directive != 0 && (i == 0 || rw.token(i - 1).directive != t.directive);
    if (starts_directive) {
      directive = rw.in_region(i + 1, t) ? rw.token(i + 1).text : "";
      scope.on_directive(directive);
    } else if (t.directive == 0) {
      directive = "";
    }

    std::optional<size_t> next;
    if (starts_directive && directive == "include" && unmodelled_library(rw, i + 1)) {
      rw.error(rw.token(i + 2),
               "the simulator does not model this library (CUB, Thrust and CUTLASS are GPU code it cannot "
               "run): check this file on a GPU (--backend gpu), or write the step with shuffles and "
               "__syncthreads() instead");
    } else if (t.is("<<<") && !(i > 0 && rw.token(i - 1).is("operator"))) {
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
    } else if ((t.is("__device__") || t.is("__constant__")) && t.directive == 0 &&
               scope.at_namespace_scope()) {
      next = rewrite_device_variable(rw, i);
    } else if ((t.is("{") || t.is("}")) && t.directive == 0) {
      scope.on_brace(rw, i);
    }
    i = next.value_or(i + 1);
  }
  return TranslateResult{rw.result(), rw.errors()};
}

}  // namespace sim
