// Warp-group collectives (wgmma.mma_async, setmaxnreg): a warp group is 4 aligned warps, 128 threads, and
// such an instruction completes once all of them are at it. Threads that exited, or warps the block
// does not have, can never come: that is reported, never hung on.
#include <bit>
#include <string>
#include <vector>

#include "diagnostics/describe.hpp"
#include "execution/block_runner.hpp"

namespace sim {

void BlockRunner::warpgroup_collective(SimThread& self, const CollectiveCall& call,
                                       std::source_location where) {
  self.call = call;
  self.site = where;
  block_lane(self, Wait::warpgroup);
  warpgroup_lanes_[self.warp] |= 1u << self.lane;
  settle_warpgroup(self.warp / 4);
  if (abandoned_) leave_for_good(self);
  if (self.wait == Wait::warpgroup) suspend(self);
}

void BlockRunner::settle_warpgroup(unsigned group) {
  // Every thread's exit asks: mostly no warp of the group is at a warp-group call.
  bool any_here = false;
  for (unsigned w = group * 4; w < group * 4 + 4 && w * 32 < count_; ++w)
    any_here |= warpgroup_lanes_[w] != 0;
  if (!any_here) return;
  bool all_here = true, none_can_run = true;
  std::vector<unsigned> missing;  // threads that exited or that the block does not have
  for (unsigned w = group * 4; w < group * 4 + 4; ++w) {
    const bool exists = w * 32 < count_;
    const uint32_t here = exists ? warpgroup_lanes_[w] : 0;
    all_here = all_here && here == ~0u;
    if (exists && warps_[w].running != 0) none_can_run = false;
    const uint32_t gone = exists ? warps_[w].exited & ~here : ~0u;
    for (uint32_t g = gone; g != 0; g &= g - 1) missing.push_back(w * 32 + std::countr_zero(g));
  }
  SimThread* threads = &threads_[group * 128];
  if (all_here) {
    if (report_warpgroup_conflict(group)) {
      abandoned_ = true;
      return;
    }
    threads[0].call.complete(threads, ~0u, block_);
    for (unsigned i = 0; i < 128; ++i) {
      threads[i].result = CollectiveResult{0, true, 0};
      unblock_lane(threads[i]);
    }
    for (unsigned w = group * 4; w < group * 4 + 4; ++w) warpgroup_lanes_[w] = 0;
    return;
  }
  if (!none_can_run || missing.empty()) return;  // the rest may still come, or the block stalls
  const SimThread* waiter = threads;
  while (waiter->wait != Wait::warpgroup) ++waiter;
  const bool beyond_block = (group * 4 + 4) * 32 > count_;
  report_as(*waiter, Severity::error, "warpgroup_incomplete", waiter->site,
            "warp group " + std::to_string(group) + " (warps " + std::to_string(group * 4) + "-" +
                std::to_string(group * 4 + 3) + ") of " + describe_block(block_) + ": " +
                describe_threads(missing, block_.block_dim) +
                (beyond_block ? " are not in the block (it has " + std::to_string(count_) + " threads)"
                              : " exited") +
                " while the others wait at " + describe_site(waiter->site) +
                ". wgmma.mma_async and setmaxnreg are executed by a whole warp group together: 4 aligned "
                "warps (warps 4g to 4g + 3), all 128 of their threads.");
  abandoned_ = true;
}

bool BlockRunner::report_warpgroup_conflict(unsigned group) {
  const SimThread* threads = &threads_[group * 128];
  for (unsigned i = 1; i < 128; ++i) {
    if (same_site(threads[i].site, threads[0].site)) continue;
    report_as(threads[i], Severity::error, "warp_divergent_collective", threads[i].site,
              "warp group " + std::to_string(group) + " of " + describe_block(block_) + ": thread " +
                  std::to_string(threads[0].linear) + " executes the warp-group instruction at " +
                  describe_site(threads[0].site) + " while thread " + std::to_string(threads[i].linear) +
                  " executes the one at " + describe_site(threads[i].site) +
                  ". A .sync.aligned warp-group instruction is executed by all 128 threads of the warp "
                  "group together, the same instruction; the results are undefined.");
    return true;
  }
  return false;
}

}  // namespace sim
