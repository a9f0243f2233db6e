// Case builders every family shares: a case of another input kind, a GPU-only case, a timed case.
#pragma once
#include <string>
#include <utility>

#include "registry.hpp"

namespace puzzle {

inline TestCase of_kind(std::string kind, std::string name, TestCase test) {  // another input kind, renamed
  test.input_kind = std::move(kind);
  test.name = std::move(name);
  return test;
}

inline TestCase gpu_only(TestCase test) {  // too large for the simulator
  test.sim = false;
  return test;
}

inline TestCase timed(TestCase test) {  // the TFLOP/s or GB/s figure of `check` on a GPU
  test.perf = true;
  return gpu_only(std::move(test));
}

}  // namespace puzzle
