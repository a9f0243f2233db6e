// The fibers of a block and the round-robin loop that runs them.
#include <atomic>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "diagnostics/describe.hpp"
#include "execution/block_runner.hpp"
#include "execution/crash_handler.hpp"
#include "execution/host_threads.hpp"
#include "memory/checker.hpp"

namespace sim {
namespace {

constinit thread_local BlockRunner* this_thread_runner [[gnu::tls_model("initial-exec")]] = nullptr;

std::array<std::atomic<BlockEndCheck>, 4> block_end_checks{};

void run_block_end_checks(const BlockState& block) {
  for (const auto& check : block_end_checks)
    if (const BlockEndCheck f = check.load(std::memory_order_acquire)) f(block);
}

}  // namespace

void add_block_end_check(BlockEndCheck check) {
  for (auto& slot : block_end_checks) {
    BlockEndCheck expected = nullptr;
    if (slot.load() == check || slot.compare_exchange_strong(expected, check)) return;
  }
}

BlockRunner& BlockRunner::for_this_thread() {
  if (!this_thread_runner) {
    // Lives as long as the host thread; fibers never move to another one.
    static thread_local std::unique_ptr<BlockRunner> owned = std::make_unique<BlockRunner>();
    this_thread_runner = owned.get();
  }
  return *this_thread_runner;
}

BlockRunner::BlockRunner() : threads_(StackPool::kMaxStacks) {
  use_alternate_signal_stack();
  register_host_thread();
}

bool BlockRunner::run(const LaunchInfo& launch, uint3 block_idx, size_t dynamic_shared_limit, KernelBody body,
                      const void* closure) {
  const dim3 dim = launch.block;
  count_ = dim.x * dim.y * dim.z;
  block_ = BlockState{};
  block_.block_idx = block_idx;
  block_.block_dim = dim;
  block_.grid_dim = launch.grid;
  block_.launch = &launch;
  block_.control = this;
  block_.epoch = memory::next_block_epoch();
  if (!memory::begin_block(block_, launch.dynamic_shared, dynamic_shared_limit)) return false;

  for (unsigned i = 0; i < count_; ++i) {
    SimThread& t = threads_[i];
    t.thread_idx = uint3{i % dim.x, i / dim.x % dim.y, i / (dim.x * dim.y)};
    t.linear = i;
    t.warp = i / 32;
    t.lane = i % 32;
    t.block = &block_;
    t.wait = Wait::none;
    t.pending_copies.clear();  // copies a thread never waited for do not outlive its block
    t.committed_batches = 0;
    t.watched = {};
    t.released_at = ~uint64_t{0};
    t.fenced_in = 0;
    prepare_fiber(t.fiber, stacks_.stack(i), StackPool::kStackBytes, &fiber_main, &t);
  }
  const unsigned warps = (count_ + 31) / 32;
  for (unsigned w = 0; w < warps; ++w) {
    warps_[w] = WarpState{};
    if (count_ - w * 32 < 32) warps_[w].exited = ~0u << (count_ - w * 32);  // lanes that do not exist
    warps_[w].running = ~warps_[w].exited;
  }
  warpgroup_lanes_ = {};
  live_ = count_;
  at_barrier_ = 0;
  abandoned_ = false;
  body_ = body;
  closure_ = closure;

  schedule();
  if (!abandoned_) run_block_end_checks(block_);
  memory::end_block(block_);
  return true;
}

uint64_t BlockRunner::take_switches() {
  return std::exchange(switches_, 0);
}

// Runs the block's threads until none can run: each fiber hands over directly to the next runnable
// thread in round-robin order (suspend), and only the last one returns here.
// Threads waiting for an asynchronous event get another turn once nothing else can run (async_wait.cpp).
void BlockRunner::schedule() {
  while (SimThread* first = next_runnable(count_ - 1)) {
    set_current_thread(first);
    ++switches_;
    switch_fiber(scheduler_, first->fiber);
    set_current_thread(nullptr);
    if (live_ == 0 || abandoned_ || !release_event_waits()) break;
  }
  if (live_ > 0 && !abandoned_) {
    report_stall();
    abandoned_ = true;
  }
}

// The first runnable thread after `after`, wrapping around; nullptr if none.
SimThread* BlockRunner::next_runnable(unsigned after) {
  const unsigned warps = (count_ + 31) / 32, warp = after / 32, lane = after % 32;
  const uint32_t later_lanes = lane == 31 ? 0 : warps_[warp].running & ~0u << (lane + 1);
  if (later_lanes != 0) return &threads_[warp * 32 + std::countr_zero(later_lanes)];
  for (unsigned i = 1; i <= warps; ++i) {
    const unsigned w = (warp + i) % warps;
    if (warps_[w].running != 0) return &threads_[w * 32 + std::countr_zero(warps_[w].running)];
  }
  return nullptr;
}

void BlockRunner::suspend(SimThread& self) {
  SimThread* next = abandoned_ ? nullptr : next_runnable(self.linear);
  set_current_thread(next);
  ++switches_;
  switch_fiber(self.fiber, next ? next->fiber : scheduler_);
  // Whoever switched back to this fiber made it the current thread.
}

void BlockRunner::leave_for_good(SimThread& self) {
  suspend(self);
  std::fputs("[sim] internal error: a finished simulated thread was resumed\n", stderr);
  std::abort();
}

void BlockRunner::abandon_block(ThreadState& self) {
  abandoned_ = true;
  leave_for_good(static_cast<SimThread&>(self));
}

void BlockRunner::yield_thread(ThreadState& self) {
  auto& thread = static_cast<SimThread&>(self);
  SimThread* next = next_runnable(thread.linear);
  if (!next || next == &thread) return;
  set_current_thread(next);
  ++switches_;
  switch_fiber(thread.fiber, next->fiber);
}

void BlockRunner::fiber_main(void* arg) {
  auto& self = *static_cast<SimThread*>(arg);
  BlockRunner& runner = for_this_thread();
  // The message is copied out so that the exception is finished with before the fiber leaves.
  bool threw = true;
  char what[256] = "an exception that is not a std::exception";
  try {
    runner.body_(runner.closure_);
    threw = false;
  } catch (const std::exception& e) {
    std::snprintf(what, sizeof what, "%s", e.what());
  } catch (...) {
  }
  if (threw) {
    report(Severity::error, "kernel_exception", Where{},
           "an exception escaped kernel " + std::string(runner.block_.launch->kernel) + " in " +
               describe_block(runner.block_) + ": " + what +
               ". CUDA device code has no exceptions; the block was stopped here.");
    runner.abandon_block(self);
  }
  runner.exit_thread(self);
  runner.leave_for_good(self);
}

void BlockRunner::exit_thread(SimThread& self) {
  block_lane(self, Wait::exited);
  warps_[self.warp].exited |= 1u << self.lane;
  --live_;
  settle_warp(self.warp);
  if (!abandoned_) settle_warpgroup(self.warp / 4);
  if (!abandoned_ && at_barrier_ > 0 && at_barrier_ == live_) complete_barrier();
}

SimThread& calling_thread(const char* function) {
  ThreadState* t = current_thread();
  if (!t) {
    std::fprintf(stderr, "[sim] %s called outside a kernel\n", function);
    std::abort();
  }
  return static_cast<SimThread&>(*t);
}

}  // namespace sim
