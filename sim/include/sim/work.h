// The calls the translator inserts to count a kernel's arithmetic for the speed estimate
// (sim/translate/work_count_rewrite.hpp); learner code never writes them.
#pragma once
#include <type_traits>

namespace sim {

void count_work_at_runtime(unsigned operators, unsigned indexes);

// `operators` of arithmetic and `indexes` array indexes in the code about to run, by the calling
// simulated thread; nothing in a constant expression (a constexpr function's loop may run at compile time).
constexpr void count_work(unsigned operators, unsigned indexes) {
  if (!std::is_constant_evaluated()) count_work_at_runtime(operators, indexes);
}

}  // namespace sim
