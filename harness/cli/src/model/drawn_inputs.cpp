#include "model/drawn_inputs.hpp"

#include <stdexcept>
#include <string>

namespace puzzle::cli {

DrawnInputs::Turn DrawnInputs::wait_for_turn(int case_index) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return stopped_ || held_bytes_.empty() || held_bytes() < kAheadBytes; });
  if (stopped_) return Turn::stop;
  return not_needed_.contains(case_index) ? Turn::skip : Turn::draw;
}

void DrawnInputs::put(int case_index, Buffers inputs) {
  int64_t bytes = 0;
  for (const std::vector<float>& buffer : inputs)
    bytes += static_cast<int64_t>(buffer.size() * sizeof(float));
  publish([&] {
    drawn_[case_index] = std::move(inputs);
    held_bytes_[case_index] = bytes;
  });
}

void DrawnInputs::fail(std::exception_ptr error) {
  publish([&] { error_ = std::move(error); });
}

void DrawnInputs::not_needed(int case_index) {
  publish([&] { not_needed_.insert(case_index); });
}

std::optional<Buffers> DrawnInputs::take(int case_index) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    return drawn_.contains(case_index) || not_needed_.contains(case_index) || error_ || stopped_;
  });
  if (not_needed_.contains(case_index)) return std::nullopt;  // crashed, timed out or not run: no reference
  if (const auto it = drawn_.find(case_index); it != drawn_.end()) {
    Buffers inputs = std::move(it->second);
    drawn_.erase(it);
    return inputs;
  }
  if (error_) std::rethrow_exception(error_);
  throw std::runtime_error("the check stopped before the inputs of case " +
                           puzzle_.cases.at(case_index).name + " were drawn");
}

void DrawnInputs::release(int case_index) {
  publish([&] {
    drawn_.erase(case_index);
    held_bytes_.erase(case_index);
  });
}

void DrawnInputs::stop() {
  publish([&] { stopped_ = true; });
}

int64_t DrawnInputs::held_bytes() const {
  int64_t sum = 0;
  for (const auto& [_, bytes] : held_bytes_) sum += bytes;
  return sum;
}

}  // namespace puzzle::cli
