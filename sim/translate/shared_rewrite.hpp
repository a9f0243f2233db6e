// `__shared__` declarations, rewritten to the simulator's per-block storage (sim/include/sim/shared.h).
// In a function body, on the declaration's first line:
//   __shared__ T NAME DIMS;        ->  static ::sim::SharedSite NAME__site_L{"NAME", L};
//                                      auto& NAME = ::sim::shared_var<T DIMS>(NAME__site_L[, ALIGN]);
//   extern __shared__ T NAME[];    ->  T* const NAME = ::sim::dynamic_shared<T>();
// At namespace scope, where each use must find its block's storage, NAME becomes a macro:
//   static ::sim::SharedSite NAME__site_L{"NAME", L};
//   #define NAME (::sim::shared_var<T DIMS>(NAME__site_L[, ALIGN]))
//   #line <line of the declaration's ';'> "path"
//   <the rest of that line>
#pragma once
#include <cstddef>
#include <optional>

#include "rewriter.hpp"

namespace sim::translate {

// Rewrites the declaration that contains the `__shared__` at token `shared`. Returns the index of the
// first token after it, or nullopt after reporting why it cannot be translated.
std::optional<size_t> rewrite_shared(Rewriter& rw, size_t shared, bool at_namespace_scope);

}  // namespace sim::translate
