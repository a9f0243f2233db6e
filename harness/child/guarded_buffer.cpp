#include "guarded_buffer.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "backend.hpp"
#include "cuda_error.hpp"
#include "protocol.hpp"

namespace puzzle::child {
namespace {

using protocol::kGuardElems;

std::vector<float> framed(int64_t elements, uint32_t fill_bits) {
  std::vector<float> image(elements + 2 * kGuardElems, std::bit_cast<float>(protocol::kGuardBits));
  std::fill_n(image.begin() + kGuardElems, elements, std::bit_cast<float>(fill_bits));
  return image;
}

}  // namespace

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
  std::vector<float> image(elements_ + 2 * kGuardElems);
  const std::string what = "download of " + name_;
  if (dtype_ == Dtype::f32) {
    check(runner_memcpy(image.data(), base_, total_bytes(), cudaMemcpyDeviceToHost), what.c_str());
    return image;
  }
  std::vector<uint16_t> bits(image.size());
  check(runner_memcpy(bits.data(), base_, total_bytes(), cudaMemcpyDeviceToHost), what.c_str());
  std::transform(bits.begin(), bits.end(), image.begin(), [&](uint16_t b) { return widen(dtype_, b); });
  return image;
}

std::vector<float> GuardedBuffer::input_image(const std::vector<float>& data) {
  std::vector<float> image = framed(static_cast<int64_t>(data.size()), protocol::kGuardBits);
  std::copy(data.begin(), data.end(), image.begin() + kGuardElems);
  return image;
}

std::vector<float> GuardedBuffer::output_image(int64_t elements) {
  return framed(elements, protocol::kPoisonBits);
}

}  // namespace puzzle::child
