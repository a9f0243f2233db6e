// The checks CUDA makes before it runs a launch, with CUDA's error codes.
#pragma once
#include <optional>
#include <string>

#include "core/context.hpp"
#include "driver_types.h"

namespace sim {

struct LaunchRefusal {
  cudaError_t error;
  const char* kind;     // the finding: "launch_invalid_config" or "launch_too_much_shared"
  std::string message;  // what is wrong and what to change
};

// `dynamic_shared_limit`: the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize.
std::optional<LaunchRefusal> check_launch(const LaunchInfo& launch, size_t dynamic_shared_limit);

}  // namespace sim
