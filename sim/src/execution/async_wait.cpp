// Threads that wait for an asynchronous event (an mbarrier phase, ptx/mbarrier.cpp): blocked, not
// spinning, until the layer that owns the event notifies it. mbarrier.try_wait may also return false
// after a time limit; the simulator takes that limit to be "once nothing else could run", so a loop that
// retries makes progress exactly when another thread could, and a wait that can never end is a stall,
// reported with what each thread waits for (stall.cpp).
#include "execution/block_runner.hpp"

namespace sim {

bool BlockRunner::wait_for_event(SimThread& self, uint64_t event, DescribeEvent describe,
                                 std::source_location where) {
  self.event = event;
  self.describe_event = describe;
  self.site = where;
  block_lane(self, Wait::event);
  settle_warp(self.warp);
  if (abandoned_) leave_for_good(self);
  if (self.wait == Wait::event) suspend(self);
  return self.result.value != 0;
}

void BlockRunner::notify_event(uint64_t event) {
  ++event_progress_;
  for (unsigned i = 0; i < count_; ++i) {
    SimThread& t = threads_[i];
    if (t.wait != Wait::event || t.event != event) continue;
    t.result = CollectiveResult{1, true, 0};
    unblock_lane(t);
  }
}

bool BlockRunner::release_event_waits() {
  bool released = false;
  for (unsigned i = 0; i < count_; ++i) {
    SimThread& t = threads_[i];
    if (t.wait != Wait::event || t.released_at == event_progress_) continue;
    t.released_at = event_progress_;
    t.result = CollectiveResult{0, true, 0};
    unblock_lane(t);
    released = true;
  }
  return released;
}

}  // namespace sim
