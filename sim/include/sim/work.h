// The calls the translator inserts to count a kernel's arithmetic for the speed estimate
// (sim/translate/work_count_rewrite.hpp); learner code never writes them.
#pragma once
#include <type_traits>

namespace sim {

// Whether the speed estimate counts (sim/src/core/work_counters.hpp), changed only while no kernel runs.
extern bool work_counting;
// Read without tsan's instrumentation (a call into the simulator's access checks per count was a seventh of
// a check's time): a call to these three instructions, never inlined into instrumented code.
[[gnu::no_sanitize_thread]] inline bool counting_work() {
  return work_counting;
}

void count_work_at_runtime(unsigned operators, unsigned indexes);

// `operators` of arithmetic and `indexes` array indexes in the code about to run, by the calling
// simulated thread; nothing in a constant expression (a constexpr function's loop may run at compile time).
constexpr void count_work(unsigned operators, unsigned indexes) {
  if (!std::is_constant_evaluated() && counting_work()) [[unlikely]]
    count_work_at_runtime(operators, indexes);
}

}  // namespace sim
