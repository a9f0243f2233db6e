#include "runtime_api/launch_validation.hpp"

#include <cstdint>

#include "core/device_limits.hpp"

namespace sim {
namespace {

std::string describe(const char* what, const dim3& d) {
  return std::string(what) + " (" + std::to_string(d.x) + "," + std::to_string(d.y) + "," +
         std::to_string(d.z) + ")";
}

// CUDA 13 refuses every bad shape with cudaErrorInvalidValue (measured on an H200: 1025 threads, a zero
// grid, gridDim.y 70000, blockDim.z 65); older CUDA said cudaErrorInvalidConfiguration.
LaunchRefusal invalid_config(const LaunchInfo& launch, const std::string& problem, const char* advice) {
  return LaunchRefusal{
      cudaErrorInvalidValue, "launch_invalid_config",
      std::string("kernel ") + launch.kernel + " launched with " + describe("grid", launch.grid) + " and " +
          describe("block", launch.block) + ": " + problem +
          ", so CUDA refuses the launch (cudaErrorInvalidValue) and nothing runs. " + advice};
}

std::optional<LaunchRefusal> check_dimensions(const LaunchInfo& launch) {
  const dim3 g = launch.grid, b = launch.block;
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0) {
    return invalid_config(launch, "a dimension is 0",
                          "Every grid and block dimension must be at least 1; check the block count "
                          "computation (e.g. (n + 255) / 256).");
  }
  const uint64_t threads = uint64_t{b.x} * b.y * b.z;
  if (threads > device::kMaxThreadsPerBlock) {
    return invalid_config(launch, std::to_string(threads) + " threads per block is more than 1024",
                          "Use at most 1024 threads per block (256 is a good default) and more blocks.");
  }
  if (b.x > unsigned(device::kMaxBlockDim[0]) || b.y > unsigned(device::kMaxBlockDim[1]) ||
      b.z > unsigned(device::kMaxBlockDim[2])) {
    return invalid_config(launch, "blockDim is at most (1024,1024,64)", "Reshape the block.");
  }
  if (g.x > unsigned(device::kMaxGridDim[0]) || g.y > unsigned(device::kMaxGridDim[1]) ||
      g.z > unsigned(device::kMaxGridDim[2])) {
    return invalid_config(launch, "gridDim is at most (2147483647,65535,65535)",
                          "Put the large dimension in x, or let each block handle more work.");
  }
  return std::nullopt;
}

std::optional<LaunchRefusal> check_shared_memory(const LaunchInfo& launch, size_t limit) {
  const size_t requested = launch.dynamic_shared;
  if (requested <= limit) return std::nullopt;
  std::string message = std::string("kernel ") + launch.kernel + " asks for " + std::to_string(requested) +
                        " bytes of dynamic shared memory per block, ";
  if (requested > device::kSharedPerBlockOptin) {
    message += "more than the " + std::to_string(device::kSharedPerBlockOptin) +
               " bytes (227 KiB) a block can have on an H100. Use less shared memory per block (smaller "
               "tiles).";
  } else if (limit <= device::kSharedPerBlock) {
    message += "more than the " + std::to_string(device::kSharedPerBlock) +
               " bytes (48 KiB) a kernel gets by default. Call cudaFuncSetAttribute(" + launch.kernel +
               ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + std::to_string(requested) +
               ") before the launch (up to 232448 bytes), or use less.";
  } else {
    message += "more than the " + std::to_string(limit) +
               " bytes set with cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...). "
               "Raise that limit or use less.";
  }
  message += " CUDA refuses the launch (cudaErrorInvalidValue) and nothing runs.";
  return LaunchRefusal{cudaErrorInvalidValue, "launch_too_much_shared", std::move(message)};
}

}  // namespace

std::optional<LaunchRefusal> check_launch(const LaunchInfo& launch, size_t dynamic_shared_limit) {
  if (auto refusal = check_dimensions(launch)) return refusal;
  return check_shared_memory(launch, dynamic_shared_limit);
}

}  // namespace sim
