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

GuardedBuffer::GuardedBuffer(std::string name, int64_t elements)
    : name_(std::move(name)), elements_(elements) {
  void* ptr = nullptr;
  check(runner_malloc(&ptr, total_bytes()), ("cudaMalloc for " + name_).c_str());
  base_ = static_cast<float*>(ptr);
}

GuardedBuffer::~GuardedBuffer() {
  if (base_) runner_free(base_);  // after a sticky error this fails too: nothing to do about it
}

GuardedBuffer::GuardedBuffer(GuardedBuffer&& other) noexcept
    : name_(std::move(other.name_)), elements_(other.elements_), base_(std::exchange(other.base_, nullptr)) {}

float* GuardedBuffer::data() const {
  return base_ + kGuardElems;
}

size_t GuardedBuffer::total_bytes() const {
  return (elements_ + 2 * kGuardElems) * sizeof(float);
}

void GuardedBuffer::upload(const std::vector<float>& image) const {
  check(runner_memcpy(base_, image.data(), total_bytes(), cudaMemcpyHostToDevice),
        ("upload of " + name_).c_str());
}

std::vector<float> GuardedBuffer::download() const {
  std::vector<float> image(elements_ + 2 * kGuardElems);
  check(runner_memcpy(image.data(), base_, total_bytes(), cudaMemcpyDeviceToHost),
        ("download of " + name_).c_str());
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
