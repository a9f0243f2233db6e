// The learner's __device__ and __constant__ variables (sim/translate registers each): objects in host
// memory here that stand for device memory, which kernels may reach and host code may not name.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace sim::memory {

struct DeviceVariable {
  uintptr_t lo = 0, hi = 0;
  const char* name = nullptr;
  bool writable = false;  // not const: host code that names it may hope to see what kernels wrote
};

// The registered variable holding `address`, or nullptr. Lock-free: variables are registered while the
// learner's code loads, before any kernel runs.
const DeviceVariable* device_variable_at(uintptr_t address) noexcept;

// Every registered variable.
std::span<const DeviceVariable> device_variables() noexcept;

}  // namespace sim::memory
