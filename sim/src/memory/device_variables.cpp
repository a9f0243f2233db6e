#include "memory/device_variables.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "sim/memory_api.h"

namespace sim::memory {
namespace {

// A fixed table: a file declares a few variables, and registration happens before kernels read it.
constexpr size_t kMaxVariables = 4096;
constinit std::array<DeviceVariable, kMaxVariables> variables{};
constinit std::atomic<size_t> variable_count{0};

}  // namespace

bool register_device_variable(const void* variable, size_t bytes, const char* name, bool writable) {
  const size_t i = variable_count.load(std::memory_order_relaxed);
  if (i == kMaxVariables) {
    std::fprintf(stderr, "[sim] more than %zu __device__ variables: %s is not registered\n", kMaxVariables,
                 name);
    std::abort();
  }
  const auto lo = reinterpret_cast<uintptr_t>(variable);
  variables[i] = {lo, lo + bytes, name, writable};
  variable_count.store(i + 1, std::memory_order_release);
  return true;
}

const DeviceVariable* device_variable_at(uintptr_t address) noexcept {
  const size_t count = variable_count.load(std::memory_order_acquire);
  const auto found = std::find_if(variables.begin(), variables.begin() + count,
                                  [&](const DeviceVariable& v) { return address >= v.lo && address < v.hi; });
  return found == variables.begin() + count ? nullptr : &*found;
}

std::span<const DeviceVariable> device_variables() noexcept {
  return {variables.data(), variable_count.load(std::memory_order_acquire)};
}

}  // namespace sim::memory
