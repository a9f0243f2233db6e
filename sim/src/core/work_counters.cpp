#include "core/work_counters.hpp"

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

#include "sim/work.h"

bool sim::work_counting = false;

namespace sim::work {
namespace detail {
std::atomic<bool> counting_on{false};
}  // namespace detail
namespace {

// The running block's counts on this host thread: per thread of the block, and its shared requests.
struct BlockWorkCounts {
  std::vector<Counts> threads = std::vector<Counts>(1024);
  uint64_t shared_requests = 0, shared_wavefronts = 0, shared_ideal = 0;
  uint64_t accesses = 0, global_accesses = 0, shared_accesses = 0;
  uint64_t global_budget = 0, shared_budget = 0;  // the launch's, copied at the block's start
  bool cut_short = false;
};
// A pointer, not the object: a thread_local with a constructor costs a call on every access.
constinit thread_local BlockWorkCounts* this_thread_work = nullptr;

BlockWorkCounts& block_work() {
  if (!this_thread_work) this_thread_work = new BlockWorkCounts;  // lives as long as the host thread
  return *this_thread_work;
}

std::mutex work_launch_mutex;
LaunchCounts work_launch_counts;
std::atomic<uint64_t> global_budget{0}, shared_budget{0};
std::atomic<uint64_t> finished_accesses{0};
std::atomic<uintptr_t> launch_kernel_pc{0};

void add_access(BlockWorkCounts& work, bool global, uint64_t n = 1) {
  work.accesses += n;
  if (((global ? work.global_accesses : work.shared_accesses) += n) >
      (global ? work.global_budget : work.shared_budget)) {
    work.cut_short = true;
    stop_running_block();
  }
}

}  // namespace

void detail::add(const ThreadState& thread, Kind kind, uint64_t n) {
  BlockWorkCounts& work = *this_thread_work;  // made by begin_block
  work.threads[thread.linear][static_cast<size_t>(kind)] += n;
  if (kind == Kind::global || kind == Kind::shared) add_access(work, kind == Kind::global);
}

void count_copy_access(size_t bytes) {
  if (counting() && current_thread()) add_access(*this_thread_work, true, (bytes + 15) / 16);
}

void set_counting(bool on) {
  detail::counting_on.store(on, std::memory_order_relaxed);
  sim::work_counting = on;  // learner code's copy (sim/include/sim/work.h)
}

void set_block_budget(uint64_t global_accesses, uint64_t shared_accesses) {
  global_budget.store(global_accesses, std::memory_order_relaxed);
  shared_budget.store(shared_accesses, std::memory_order_relaxed);
}

void note_kernel_pc(uintptr_t pc) {
  uintptr_t none = 0;
  if (launch_kernel_pc.load(std::memory_order_relaxed) == 0)
    launch_kernel_pc.compare_exchange_strong(none, pc, std::memory_order_relaxed);
}

void count_shared_request(unsigned wavefronts, unsigned ideal_wavefronts) {
  if (!counting()) return;
  BlockWorkCounts& work = block_work();
  ++work.shared_requests;
  work.shared_wavefronts += wavefronts;
  work.shared_ideal += ideal_wavefronts;
}

void begin_block(unsigned threads) {
  if (!counting()) return;
  BlockWorkCounts& work = block_work();
  std::fill_n(work.threads.begin(), threads, Counts{});
  work.shared_requests = work.shared_wavefronts = work.shared_ideal = 0;
  work.accesses = work.global_accesses = work.shared_accesses = 0;
  const auto or_never = [](uint64_t budget) { return budget == 0 ? UINT64_MAX : budget; };
  work.global_budget = or_never(global_budget.load(std::memory_order_relaxed));
  work.shared_budget = or_never(shared_budget.load(std::memory_order_relaxed));
  work.cut_short = false;
}

void end_block(unsigned threads) {
  if (!counting()) return;
  BlockWorkCounts& work = block_work();
  Counts per_warp{}, longest{};
  for (unsigned first = 0; first < threads; first += 32) {
    Counts warp{};
    for (unsigned t = first; t < std::min(threads, first + 32); ++t) {
      for (size_t k = 0; k < kKinds; ++k) warp[k] = std::max(warp[k], work.threads[t][k]);
    }
    for (size_t k = 0; k < kKinds; ++k) {
      per_warp[k] += warp[k];
      longest[k] = std::max(longest[k], warp[k]);
    }
  }
  std::lock_guard lock(work_launch_mutex);
  for (size_t k = 0; k < kKinds; ++k) {
    work_launch_counts.per_warp[k] += per_warp[k];
    work_launch_counts.longest_thread[k] = std::max(work_launch_counts.longest_thread[k], longest[k]);
    work_launch_counts.block_longest[k] += longest[k];
  }
  work_launch_counts.shared_requests += work.shared_requests;
  work_launch_counts.shared_wavefronts += work.shared_wavefronts;
  work_launch_counts.shared_ideal_wavefronts += work.shared_ideal;
  ++work_launch_counts.blocks;
  work_launch_counts.accesses += work.accesses;
  work_launch_counts.cut_short = work_launch_counts.cut_short || work.cut_short;
  finished_accesses.fetch_add(work.accesses, std::memory_order_relaxed);
}

uint64_t launch_accesses() {
  return finished_accesses.load(std::memory_order_relaxed);
}

LaunchCounts take_launch_counts() {
  std::lock_guard lock(work_launch_mutex);
  finished_accesses.store(0, std::memory_order_relaxed);
  work_launch_counts.kernel_pc = launch_kernel_pc.exchange(0, std::memory_order_relaxed);
  return std::exchange(work_launch_counts, LaunchCounts{});
}

}  // namespace sim::work
