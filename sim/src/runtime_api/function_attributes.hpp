// Per-kernel attributes. The simulator cannot tie a launch to a function pointer (a launch only
// knows the kernel's name), so the largest dynamic shared memory limit set on any kernel applies
// to every launch.
#pragma once
#include <cstddef>

namespace sim {

// cudaFuncAttributeMaxDynamicSharedMemorySize as launches see it: 48 KiB unless raised.
size_t max_dynamic_shared_bytes();
void reset_function_attributes();  // cudaDeviceReset

}  // namespace sim
