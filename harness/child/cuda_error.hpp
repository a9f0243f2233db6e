// CUDA errors of the runner's own calls: they are the harness's failures, not the learner's.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace puzzle::child {

// "cudaErrorIllegalAddress: an illegal memory access was encountered"
inline std::string describe(cudaError_t error) {
  return std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
}

inline void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + describe(error));
}

}  // namespace puzzle::child
