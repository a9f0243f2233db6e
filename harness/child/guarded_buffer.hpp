// One device buffer as the runner allocates it: a single allocation [guard][data][guard], so that
// writes just outside the buffer land in memory we can inspect (protocol::kGuardElems each side).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace puzzle::child {

class GuardedBuffer {
 public:
  GuardedBuffer(std::string name, int64_t elements);
  ~GuardedBuffer();
  GuardedBuffer(GuardedBuffer&& other) noexcept;
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(GuardedBuffer&&) = delete;

  const std::string& name() const { return name_; }
  int64_t elements() const { return elements_; }
  float* base() const { return base_; }  // the allocation, guards included
  float* data() const;                   // what the launcher gets
  size_t total_bytes() const;

  void upload(const std::vector<float>& image) const;  // guards included, total_bytes() of them
  std::vector<float> download() const;                 // guards included

  // The host image to upload: data (or poison for an output) between two guard zones.
  static std::vector<float> input_image(const std::vector<float>& data);
  static std::vector<float> output_image(int64_t elements);

 private:
  std::string name_;
  int64_t elements_;
  float* base_ = nullptr;
};

}  // namespace puzzle::child
