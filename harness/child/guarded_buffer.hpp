// One device buffer as the runner allocates it: a single allocation [guard][data][guard], so that
// writes just outside the buffer land in memory we can inspect (protocol::kGuardElems each side). On the
// device it holds elements of its dtype; its host images are floats (dtype.hpp), converted on the way.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dtype.hpp"

namespace puzzle::child {

class GuardedBuffer {
 public:
  GuardedBuffer(std::string name, int64_t elements, Dtype dtype);
  ~GuardedBuffer();
  GuardedBuffer(GuardedBuffer&& other) noexcept;
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(GuardedBuffer&&) = delete;

  const std::string& name() const { return name_; }
  int64_t elements() const { return elements_; }
  Dtype dtype() const { return dtype_; }
  std::byte* base() const { return base_; }  // the allocation, guards included
  std::byte* data() const;                   // what the launcher gets
  std::byte* end() const;                    // just past the data: the second guard zone
  size_t guard_bytes() const;
  size_t total_bytes() const;

  void upload(const std::vector<float>& image) const;  // guards included
  std::vector<float> download() const;                 // guards included
  void download(std::vector<float>& image) const;      // the same into `image`, its memory reused
  // Guard zones and, between them, every element set to `data_bits` (a float's bits, in the buffer's
  // dtype): how an output starts, poisoned. Done on the device, with no host image.
  void fill(uint32_t data_bits) const;
  // A second buffer holding the same bytes, and how many elements (guards included) differ from it.
  GuardedBuffer copy() const;
  int64_t count_differences(const GuardedBuffer& other) const;

  // The host image of an input to upload: data between two guard zones.
  static std::vector<float> input_image(const std::vector<float>& data);
  // `image` as an input image of `elements` with its guards set, the data still to be filled in.
  static void frame_input(std::vector<float>& image, int64_t elements);

 private:
  std::string name_;
  int64_t elements_;
  Dtype dtype_;
  std::byte* base_ = nullptr;
};

}  // namespace puzzle::child
