// Kernel launches: `kern<<<G, B, S, St>>>(A1, A2)` becomes
//   ::sim::launch_with_arguments(::sim::LaunchConfig(G, B, S, St), "kern",
//                                [=](const auto&... sim_args) { kern(sim_args...); }, A1, A2)
// so that the arguments are evaluated once, by the host, as on a GPU (a kernel reading host memory is a
// finding: the arguments must not be read there). With a braced-list argument, which has no type to
// keep, each simulated thread evaluates them: `::sim::launch(config, "kern", [=]() { kern(ARGS); })`.
// The configuration and the arguments are copied verbatim (a lone `0` or `NULL` argument becomes
// ::sim::zero_argument); the kernel expression moves behind them, and the line breaks it leaves are kept
// in place so that every line keeps its number.
#pragma once
#include <cstddef>
#include <optional>

#include "rewriter.hpp"

namespace sim::translate {

// Rewrites the launch whose `<<<` is token `open`. Returns the index of the first token after the
// launch, or nullopt after reporting why the launch cannot be translated.
std::optional<size_t> rewrite_launch(Rewriter& rw, size_t open);

}  // namespace sim::translate
