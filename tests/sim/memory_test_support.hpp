// Helpers for the memory checker's tests: run code as a launcher under the harness API, look at the
// findings, and allocate buffers the way the child runner does.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "sim/harness_api.h"

namespace memory_test {

using sim::harness::Finding;
using sim::harness::Report;

template <class Launcher>
Report checked(Launcher&& launcher) {
  sim::harness::begin_launcher();
  launcher();
  return sim::harness::end_launcher();
}

inline std::vector<Finding> of_kind(const Report& report, const std::string& kind) {
  std::vector<Finding> found;
  for (const Finding& f : report.findings)
    if (f.kind == kind) found.push_back(f);
  return found;
}

inline std::string kinds(const Report& report) {  // for failure messages
  std::string all;
  for (const Finding& f : report.findings) all += f.kind + ": " + f.message + "\n";
  return all;
}

inline bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// [guard][buffer][guard] in one cudaMalloc, guards marked and the buffer labelled, as the runner does.
class GuardedBuffer {
 public:
  static constexpr size_t kGuardElements = 1024;

  GuardedBuffer(size_t elements, const char* label) : elements_(elements) {
    cudaMalloc(&base_, (elements + 2 * kGuardElements) * sizeof(float));
    sim::harness::mark_guard(base_, kGuardElements * sizeof(float), label);
    sim::harness::mark_guard(get() + elements, kGuardElements * sizeof(float), label);
    sim::harness::label_allocation(get(), label);
  }
  GuardedBuffer(const std::vector<float>& values, const char* label) : GuardedBuffer(values.size(), label) {
    cudaMemcpy(get(), values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  }
  ~GuardedBuffer() { cudaFree(base_); }
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  float* get() const { return base_ + kGuardElements; }
  std::vector<float> download() const {
    std::vector<float> values(elements_);
    cudaMemcpy(values.data(), get(), elements_ * sizeof(float), cudaMemcpyDeviceToHost);
    return values;
  }

 private:
  float* base_ = nullptr;
  size_t elements_;
};

inline std::vector<float> iota_floats(size_t n) {
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<float>(i);
  return values;
}

}  // namespace memory_test
