// Kernel launches: `kern<<<G, B, S, St>>>(ARGS)` becomes
//   ::sim::launch(::sim::LaunchConfig(G, B, S, St), "kern", [=]() { kern(ARGS); })
// The configuration and the arguments are copied verbatim; the kernel expression moves behind them, and
// the line breaks it leaves are kept in place so that every line keeps its number.
#pragma once
#include <cstddef>
#include <optional>

#include "rewriter.hpp"

namespace sim::translate {

// Rewrites the launch whose `<<<` is token `open`. Returns the index of the first token after the
// launch, or nullopt after reporting why the launch cannot be translated.
std::optional<size_t> rewrite_launch(Rewriter& rw, size_t open);

}  // namespace sim::translate
