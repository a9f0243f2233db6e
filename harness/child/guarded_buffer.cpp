#include "guarded_buffer.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "backend.hpp"
#include "cuda_error.hpp"
#include "protocol.hpp"

namespace puzzle::child {

using protocol::kGuardElems;

GuardedBuffer::GuardedBuffer(std::string name, int64_t elements, Dtype dtype)
    : name_(std::move(name)), elements_(elements), dtype_(dtype) {
  void* ptr = nullptr;
  check(runner_malloc(&ptr, total_bytes()), ("cudaMalloc for " + name_).c_str());
  base_ = static_cast<std::byte*>(ptr);
}

GuardedBuffer::~GuardedBuffer() {
  if (base_) runner_free(base_);  // after a sticky error this fails too: nothing to do about it
}

GuardedBuffer::GuardedBuffer(GuardedBuffer&& other) noexcept
    : name_(std::move(other.name_)),
      elements_(other.elements_),
      dtype_(other.dtype_),
      base_(std::exchange(other.base_, nullptr)) {}

std::byte* GuardedBuffer::data() const {
  return base_ + guard_bytes();
}

std::byte* GuardedBuffer::end() const {
  return data() + elements_ * dtype_bytes(dtype_);
}

size_t GuardedBuffer::guard_bytes() const {
  return kGuardElems * dtype_bytes(dtype_);
}

size_t GuardedBuffer::total_bytes() const {
  return (elements_ + 2 * kGuardElems) * dtype_bytes(dtype_);
}

void GuardedBuffer::upload(const std::vector<float>& image) const {
  const std::string what = "upload of " + name_;
  if (dtype_ == Dtype::f32) {
    check(runner_memcpy(base_, image.data(), total_bytes(), cudaMemcpyHostToDevice), what.c_str());
    return;
  }
  std::vector<uint16_t> narrowed(image.size());
  std::transform(image.begin(), image.end(), narrowed.begin(), [&](float v) { return narrow(dtype_, v); });
  check(runner_memcpy(base_, narrowed.data(), total_bytes(), cudaMemcpyHostToDevice), what.c_str());
}

std::vector<float> GuardedBuffer::download() const {
  std::vector<float> image;
  download(image);
  return image;
}

void GuardedBuffer::download(std::vector<float>& image) const {
  image.resize(elements_ + 2 * kGuardElems);
  const std::string what = "download of " + name_;
  if (dtype_ == Dtype::f32) {
    check(runner_memcpy(image.data(), base_, total_bytes(), cudaMemcpyDeviceToHost), what.c_str());
    return;
  }
  std::vector<uint16_t> bits(image.size());
  check(runner_memcpy(bits.data(), base_, total_bytes(), cudaMemcpyDeviceToHost), what.c_str());
  std::transform(bits.begin(), bits.end(), image.begin(), [&](uint16_t b) { return widen(dtype_, b); });
}

void GuardedBuffer::fill(uint32_t data_bits) const {
  const size_t element_bytes = dtype_bytes(dtype_);
  // A float's bits as this buffer's element: the same value a host image would have been narrowed to.
  const auto element_bits = [&](uint32_t bits) -> uint32_t {
    return dtype_ == Dtype::f32 ? bits : narrow(dtype_, std::bit_cast<float>(bits));
  };
  const std::string what = "fill of " + name_;
  check(runner_fill(base_, element_bits(protocol::kGuardBits), kGuardElems, element_bytes), what.c_str());
  check(runner_fill(data(), element_bits(data_bits), elements_, element_bytes), what.c_str());
  check(runner_fill(end(), element_bits(protocol::kGuardBits), kGuardElems, element_bytes), what.c_str());
}

GuardedBuffer GuardedBuffer::copy() const {
  GuardedBuffer twin(name_, elements_, dtype_);
  check(runner_memcpy(twin.base_, base_, total_bytes(), cudaMemcpyDeviceToDevice),
        ("copy of " + name_).c_str());
  return twin;
}

int64_t GuardedBuffer::count_differences(const GuardedBuffer& other) const {
  int64_t differences = 0;
  check(runner_count_differences(base_, other.base_, elements_ + 2 * kGuardElems, dtype_bytes(dtype_),
                                 differences),
        ("comparison of " + name_).c_str());
  return differences;
}

std::vector<float> GuardedBuffer::input_image(const std::vector<float>& data) {
  std::vector<float> image;
  frame_input(image, static_cast<int64_t>(data.size()));
  std::copy(data.begin(), data.end(), image.begin() + kGuardElems);
  return image;
}

void GuardedBuffer::frame_input(std::vector<float>& image, int64_t elements) {
  image.resize(elements + 2 * kGuardElems);
  std::fill_n(image.begin(), kGuardElems, std::bit_cast<float>(protocol::kGuardBits));
  std::fill_n(image.end() - kGuardElems, kGuardElems, std::bit_cast<float>(protocol::kGuardBits));
}

}  // namespace puzzle::child
