// CUDA's per-host-thread "last error", shared by every runtime API function.
#pragma once
#include "driver_types.h"

namespace sim {

// Records a non-success error as the last error (what cudaGetLastError returns) and returns it.
cudaError_t record_error(cudaError_t e) noexcept;

}  // namespace sim
