// The calls the translator inserts to count a kernel's arithmetic for the speed estimate
// (sim/translate/work_count_rewrite.hpp); learner code never writes them.
#pragma once
#include <type_traits>

namespace sim {

// Whether the speed estimate counts (sim/src/core/work_counters.hpp), changed only while no kernel runs.
extern bool work_counting;
// Read without tsan's instrumentation (a call into the simulator's access checks per count was a seventh of
// a check's time): one load in inline assembly, which tsan does not see and g++ keeps inline; elsewhere a
// call to a function without the instrumentation.
[[gnu::no_sanitize_thread]] inline bool counting_work_uninstrumented() {
  return work_counting;
}
inline bool counting_work() {
  bool on;
#if defined(__x86_64__)
  asm("movb %1, %0" : "=r"(on) : "m"(work_counting));
#elif defined(__aarch64__)
  asm("ldrb %w0, %1" : "=r"(on) : "m"(work_counting));
#else
  on = counting_work_uninstrumented();
#endif
  return on;
}

void count_work_at_runtime(unsigned operators, unsigned indexes);

// `operators` of arithmetic and `indexes` array indexes in the code about to run, by the calling
// simulated thread; nothing in a constant expression (a constexpr function's loop may run at compile time).
constexpr void count_work(unsigned operators, unsigned indexes) {
  if (!std::is_constant_evaluated() && counting_work()) [[unlikely]]
    count_work_at_runtime(operators, indexes);
}

}  // namespace sim
