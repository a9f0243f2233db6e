// `__device__` and `__constant__` variables at namespace scope, registered with the simulator, which keeps
// them in host memory: kernels may reach them, as a GPU's do, and host code that names a writable one
// directly is a finding (host_access_to_device), where a GPU would reach only a host copy of it.
//   __device__ T NAME DIMS = INIT;  ->  __device__ T NAME DIMS = INIT;
//                                       static const bool NAME__registered =
//                                       ::sim::register_device_variable(NAME, "NAME");
// all on the declaration's last line. Left as they are: declarations that only name a variable
// (`extern`, whose definition is registered) and variable templates.
#pragma once
#include <cstddef>
#include <optional>

#include "rewriter.hpp"

namespace sim::translate {

// Registers the variable whose declaration has its `__device__` or `__constant__` at token `qualifier`.
// Returns the index of the first token after the declaration, or nullopt when it is not one of a
// variable (a function) or is left alone (above), or after reporting why it cannot be translated.
std::optional<size_t> rewrite_device_variable(Rewriter& rw, size_t qualifier);

}  // namespace sim::translate
