// The source's arithmetic, counted for the speed estimate: each loop body and each __device__ or
// __global__ function body starts with `::sim::count_work(N, I);` (sim/include/sim/work.h), N being the
// operators it holds that no loop nested in it holds (a multiply and an add count once: an FMA) and I its
// array indexes, so that the simulator counts each thread's work as the code runs: the unrolled register
// tiles of a kernel as much as its plain loops. A loop whose body is a single statement counts in its
// condition instead: `for (i = 0; ::sim::count_work(N, I), i < n; ...)`.
// Only inserted text: what the compiler sees of the learner's code does not change.
#pragma once
#include <cstddef>
#include <map>
#include <string>

#include "rewriter.hpp"

namespace sim::translate {

// Text to insert before token i of ordinary code (not directives), keyed by i.
std::map<size_t, std::string> plan_work_counts(const Rewriter& rw);

}  // namespace sim::translate
