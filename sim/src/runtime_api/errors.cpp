// CUDA's last-error state and error names.
#include "runtime_api/errors.hpp"

#include "cuda_runtime_api.h"

namespace sim {
namespace {
constinit thread_local cudaError_t last_error = cudaSuccess;
}  // namespace

cudaError_t record_error(cudaError_t e) noexcept {
  if (e != cudaSuccess) last_error = e;
  return e;
}

}  // namespace sim

cudaError_t cudaGetLastError() {
  const cudaError_t e = sim::last_error;
  sim::last_error = cudaSuccess;
  return e;
}

cudaError_t cudaPeekAtLastError() {
  return sim::last_error;
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define SIM_CUDA_ERROR_NAME(name, value, text) \
  case name:                                   \
    return #name;
    SIM_CUDA_ERRORS(SIM_CUDA_ERROR_NAME)
#undef SIM_CUDA_ERROR_NAME
  }
  return "unrecognized error code";
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
#define SIM_CUDA_ERROR_TEXT(name, value, text) \
  case name:                                   \
    return text;
    SIM_CUDA_ERRORS(SIM_CUDA_ERROR_TEXT)
#undef SIM_CUDA_ERROR_TEXT
  }
  return "unrecognized error code";
}
