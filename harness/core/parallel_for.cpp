#include "parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace puzzle {

void parallel_for(int64_t count, const std::function<void(int64_t)>& body) {
  const int64_t workers = std::min<int64_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<int64_t> next{0};
  const auto work = [&] {
    for (int64_t i = next++; i < count; i = next++) body(i);
  };
  std::vector<std::jthread> helpers;
  for (int64_t w = 1; w < workers; ++w) helpers.emplace_back(work);
  work();
}

void parallel_ranges(int64_t count, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
  grain = std::max<int64_t>(grain, 1);
  parallel_for((count + grain - 1) / grain, [&](int64_t range) {
    const int64_t begin = range * grain;
    body(begin, std::min(count, begin + grain));
  });
}

}  // namespace puzzle
