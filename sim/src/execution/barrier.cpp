// __syncthreads: released when every thread that has not exited waits at it. Threads waiting at
// different __syncthreads, or some threads exiting while others wait, are reported, never hung on.
#include <vector>

#include "core/work_counters.hpp"
#include "diagnostics/describe.hpp"
#include "execution/block_runner.hpp"
#include "memory/banks.hpp"
#include "memory/global_requests.hpp"

namespace sim {

int BlockRunner::barrier(SimThread& self, int predicate, std::source_location where) {
  work::count(work::Kind::barrier);
  self.site = where;
  self.predicate = predicate != 0;
  block_lane(self, Wait::barrier);
  ++at_barrier_;
  if (at_barrier_ == live_) {
    complete_barrier();
  } else {
    settle_warp(self.warp);
  }
  if (abandoned_) leave_for_good(self);
  if (self.wait == Wait::barrier) suspend(self);
  return static_cast<int>(self.result.value);
}

// Every thread that has not exited waits at a barrier.
void BlockRunner::complete_barrier() {
  if (report_barrier_divergence()) {
    abandoned_ = true;
    return;
  }
  if (live_ < count_) {
    report_barrier_exit();
    abandoned_ = true;
    return;
  }
  int passed = 0;
  for (unsigned i = 0; i < count_; ++i) passed += threads_[i].predicate;
  for (unsigned i = 0; i < count_; ++i) {
    threads_[i].result = CollectiveResult{static_cast<uint64_t>(passed), true, 0};
    unblock_lane(threads_[i]);
  }
  at_barrier_ = 0;
  ++block_.epoch;
  memory::settle_bank_groups();
  if (work::counting()) memory::settle_global_groups();
}

bool BlockRunner::report_barrier_divergence() {
  struct SiteGroup {
    std::source_location site;
    std::vector<unsigned> threads;
  };
  // Mostly every waiting thread is at one call: said without building the groups.
  const SimThread* first = nullptr;
  bool one_site = true;
  for (unsigned i = 0; i < count_ && one_site; ++i) {
    if (threads_[i].wait != Wait::barrier) continue;
    if (!first) first = &threads_[i];
    one_site = same_site(first->site, threads_[i].site);
  }
  if (one_site) return false;
  std::vector<SiteGroup> groups;
  for (unsigned i = 0; i < count_; ++i) {
    if (threads_[i].wait != Wait::barrier) continue;
    auto group = groups.begin();
    while (group != groups.end() && !same_site(group->site, threads_[i].site)) ++group;
    if (group == groups.end()) group = groups.insert(groups.end(), SiteGroup{threads_[i].site, {}});
    group->threads.push_back(i);
  }
  if (groups.size() < 2) return false;
  bool shared_line = false;  // then columns tell the calls apart
  for (size_t i = 0; i < groups.size(); ++i) {
    for (size_t j = i + 1; j < groups.size(); ++j)
      shared_line = shared_line || groups[i].site.line() == groups[j].site.line();
  }
  std::string where;
  for (const SiteGroup& g : groups) {
    where += (where.empty() ? "" : ", ") + describe_threads(g.threads, block_.block_dim) + " wait at " +
             describe_site(g.site, shared_line);
  }
  report_as(threads_[groups[1].threads.front()], Severity::error, "barrier_divergence", groups[1].site,
            describe_block(block_) + ": threads wait at different __syncthreads(): " + where +
                ". Every thread of a block must reach the same __syncthreads() (undefined behaviour "
                "otherwise); keep barriers out of branches that only some threads take.");
  return true;
}

void BlockRunner::report_barrier_exit() {
  std::vector<unsigned> exited, waiting;
  for (unsigned i = 0; i < count_; ++i) (threads_[i].wait == Wait::exited ? exited : waiting).push_back(i);
  const SimThread& waiter = threads_[waiting.front()];
  report_as(waiter, Severity::error, "barrier_exit", waiter.site,
            describe_block(block_) + ": " + describe_threads(exited, block_.block_dim) + " exited while " +
                describe_threads(waiting, block_.block_dim) + " wait at __syncthreads() (" +
                describe_site(waiter.site) +
                "). A __syncthreads() that some threads of the block never reach is undefined behaviour "
                "(CUDA Programming Guide). Instead of returning early, wrap the work in if (i < n) { ... } "
                "so that every thread reaches every __syncthreads().");
}

}  // namespace sim
