// A block in which no thread can run: say who waits where, never hang.
#include <string>
#include <vector>

#include "diagnostics/describe.hpp"
#include "execution/block_runner.hpp"

namespace sim {
namespace {

// How a waiting thread is described: where it waits, and at which collective with which mask.
std::string describe_wait(const SimThread& t) {
  switch (t.wait) {
    case Wait::barrier:
      return "wait at __syncthreads() (" + describe_site(t.site) + ")";
    case Wait::collective:
      return "wait at " + std::string(collective_name(t.call.op)) + " (" + describe_site(t.site) + ", mask " +
             hex_mask(t.call.mask) + ")";
    case Wait::activemask:
      return "wait at __activemask() (" + describe_site(t.site) + ")";
    case Wait::warpgroup:
      return "wait at a warp-group instruction (" + describe_site(t.site) + ")";
    case Wait::event: {
      std::string words;
      t.describe_event(t, words);
      return words;
    }
    case Wait::exited:
      return "exited";
    case Wait::none:
      break;
  }
  return "can run";
}

}  // namespace

void BlockRunner::report_stall() {
  for (unsigned warp = 0; warp * 32 < count_; ++warp) {
    if (report_collective_conflict(warp, false)) return;
  }
  struct WaitGroup {
    std::string what;
    std::vector<unsigned> threads;
  };
  std::vector<WaitGroup> groups;
  for (unsigned i = 0; i < count_; ++i) {
    std::string what = describe_wait(threads_[i]);
    auto group = groups.begin();
    while (group != groups.end() && group->what != what) ++group;
    if (group == groups.end()) group = groups.insert(groups.end(), WaitGroup{std::move(what), {}});
    group->threads.push_back(i);
  }
  std::string who;
  for (const WaitGroup& g : groups) {
    who += (who.empty() ? "" : "; ") + describe_threads(g.threads, block_.block_dim) + " " + g.what;
  }
  const SimThread* first = &threads_[0];
  while (first->wait == Wait::exited) ++first;
  // A thread waiting for an asynchronous event says what the stall is (an mbarrier that never completes).
  const SimThread* event_waiter = first;
  while (event_waiter < &threads_[count_ - 1] && event_waiter->wait != Wait::event) ++event_waiter;
  if (event_waiter->wait == Wait::event) {
    std::string words;
    const char* kind = event_waiter->describe_event(*event_waiter, words);
    report_as(*event_waiter, Severity::error, kind, event_waiter->site,
              describe_block(block_) + " cannot make progress (on a GPU it hangs): " + who + ".");
    return;
  }
  report_as(*first, Severity::error, "deadlock", first->site,
            describe_block(block_) + " cannot make progress: " + who +
                ". A warp collective waits for every lane its mask names, and __syncthreads() for every "
                "thread of the block: keep every thread on the same path through barriers and collectives.");
}

}  // namespace sim
