// Runs one block at a time on a host thread: a fiber per CUDA thread, scheduled round-robin, each
// running until it exits or waits at a barrier or warp collective. Member functions are defined by
// job: scheduler.cpp (fibers, hand-over, exit), barrier.cpp, collectives.cpp, warp_conflicts.cpp
// (lanes that disagree about a collective), warpgroup.cpp (collectives of 4 aligned warps: wgmma),
// async_wait.cpp (threads that wait for an asynchronous event: an mbarrier's phase) and stall.cpp (blocks
// in which nothing can run).
#pragma once
#include <array>
#include <cstdint>
#include <source_location>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "execution/fiber.hpp"
#include "execution/stack_pool.hpp"
#include "sim/launch.h"

namespace sim {

enum class Wait : uint8_t {
  none,        // runnable
  barrier,     // in __syncthreads*
  collective,  // in a warp collective (__shfl*_sync, __ballot_sync, __syncwarp ...)
  activemask,  // in __activemask, until the rest of its warp waits or exits
  warpgroup,   // in a warp-group collective (wgmma.mma_async, setmaxnreg), until its 128 threads arrive
  event,       // for an asynchronous event (an mbarrier phase), until notified or the block would stall
  exited,
};

enum class CollectiveOp : uint8_t {
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  any,
  all,
  syncwarp,
  match_any,
  match_all,
  reduce_add,
  reduce_min,
  reduce_max,
  reduce_min_signed,
  reduce_max_signed,
  reduce_and,
  reduce_or,
  reduce_xor,
  warp_matrix,  // mma.sync / ldmatrix (ptx/warp_matrix.hpp): value points at the lane's WarpMatrixCall
  warpgroup,    // a warp-group collective: value points at the thread's call record of the layer above
};
const char* collective_name(CollectiveOp op);

struct SimThread;
// Computes the results of a collective whose arithmetic the layer above defines (warp_matrix), once
// every lane of `group` waits at it. A warp-group collective gets its first thread and group ~0u.
using CompleteGroup = void (*)(SimThread* lanes, uint32_t group, const BlockState& block);
// What a thread waiting for an event waits for, in words, and the finding kind of a block that stalls
// with it waiting ("mbarrier_deadlock" ...): from the layer that defines the event.
using DescribeEvent = const char* (*)(const SimThread& waiter, std::string& words);

struct CollectiveCall {
  CollectiveOp op;
  uint32_t mask;
  uint64_t value = 0;  // the lane's operand (bits of the shuffled value, predicate, ...)
  int b = 0, c = 0;    // shuffles: PTX shfl.sync's b (lane or offset) and c (clamp and segment mask)
  CompleteGroup complete = nullptr;  // warp_matrix: computes every lane's result
};

struct CollectiveResult {
  uint64_t value;
  bool defined;     // false: a shuffle read a lane that exited or is not in the mask
  int source_lane;  // shuffles: the lane read
};

struct SimThread : ThreadState {
  FiberContext fiber;
  Wait wait = Wait::none;
  std::source_location site;  // where it waits
  CollectiveCall call{};      // while wait == collective
  int predicate = 0;          // while wait == barrier
  CollectiveResult result{};  // what the barrier or collective it waited at returns
  uint64_t event = 0;         // while wait == event: what it waits for (its layer's key)
  DescribeEvent describe_event = nullptr;
  uint64_t released_at = ~uint64_t{0};  // the event progress at which a stall last released it
};

struct WarpState {
  uint32_t running = 0;     // lanes that can run (wait == none)
  uint32_t exited = 0;      // lanes that exited, and lanes past the end of a partial warp
  uint32_t collective = 0;  // lanes waiting at a warp collective
  uint32_t activemask = 0;  // lanes waiting in __activemask
  // Whether the lanes waiting at collectives all use the same (op, mask) as `first`: then only
  // that one group can complete, and checking it is a single mask test.
  bool uniform = true;
  CollectiveOp first_op{};
  uint32_t first_mask = 0;
};

class BlockRunner final : public BlockControl {
 public:
  static BlockRunner& for_this_thread();
  BlockRunner();

  // Runs block `block_idx` of `launch` until every thread exits or a finding abandons it. Returns
  // false, running nothing, if the memory checker refuses the block's shared memory.
  bool run(const LaunchInfo& launch, uint3 block_idx, size_t dynamic_shared_limit, KernelBody body,
           const void* closure);
  uint64_t take_switches();

  // ---- called by the running simulated thread `self` ----
  // Returns how many threads of the block passed a nonzero predicate.
  int barrier(SimThread& self, int predicate, std::source_location where);
  CollectiveResult collective(SimThread& self, const CollectiveCall& call, std::source_location where);
  uint32_t activemask(SimThread& self, std::source_location where);
  // A collective of the 4 aligned warps of `self`'s warp group (call.op: warpgroup): returns once all 128
  // threads are at it and call.complete has run for them; reports and ends the block if they cannot be.
  void warpgroup_collective(SimThread& self, const CollectiveCall& call, std::source_location where);
  // Waits until notify_event(event) (true) or until the block could not go on otherwise (false: a
  // try_wait's time limit), at most once per change of event progress.
  bool wait_for_event(SimThread& self, uint64_t event, DescribeEvent describe, std::source_location where);
  void notify_event(uint64_t event);
  // Something a waiting thread may be waiting for has changed (an arrival, bytes of a copy).
  void note_event_progress() { ++event_progress_; }
  // Ends the block after an error: the remaining threads never run again.
  [[noreturn]] void abandon_block(ThreadState& self) override;
  void yield_thread(ThreadState& self) override;

 private:
  static void fiber_main(void* self);
  void schedule();
  SimThread* next_runnable(unsigned after);
  // Hands this host thread to the next runnable simulated thread (or back to schedule()).
  void suspend(SimThread& self);
  void exit_thread(SimThread& self);
  [[noreturn]] void leave_for_good(SimThread& self);

  void block_lane(SimThread& t, Wait wait) {
    t.wait = wait;
    warps_[t.warp].running &= ~(1u << t.lane);
  }
  void unblock_lane(SimThread& t) {
    t.wait = Wait::none;
    warps_[t.warp].running |= 1u << t.lane;
  }

  void complete_barrier();
  bool report_barrier_divergence();
  void report_barrier_exit();

  // Warp collectives complete once no lane of the warp can run: every lane has reached what it
  // reaches next, so lanes that disagree about a collective are caught whatever the run order.
  void settle_warp(unsigned warp);
  bool release_consistent_groups(unsigned warp);
  bool group_is_complete(unsigned warp, uint32_t mask) const;
  bool group_is_consistent(unsigned warp, uint32_t mask, CollectiveOp op) const;
  void release_group(unsigned warp, uint32_t mask);
  void release_activemask(unsigned warp);
  void settle_warpgroup(unsigned group);
  bool report_warpgroup_conflict(unsigned group);
  // Lets every thread waiting for an event return false once per change of progress; false if none can.
  bool release_event_waits();

  // Two waiting lanes that a complete mask puts together but that disagree on the collective or
  // its mask (only ones at the same call site if `same_site_only`); reports them.
  bool report_collective_conflict(unsigned warp, bool same_site_only);
  void report_stall();

  SimThread* lanes(unsigned warp) { return &threads_[warp * 32]; }
  const SimThread* lanes(unsigned warp) const { return &threads_[warp * 32]; }

  StackPool stacks_;
  FiberContext scheduler_;
  std::vector<SimThread> threads_;  // kMaxStacks, reused by every block
  std::array<WarpState, StackPool::kMaxStacks / 32> warps_{};
  std::array<uint32_t, StackPool::kMaxStacks / 32>
      warpgroup_lanes_{};  // per warp: lanes at a warp-group call
  uint64_t event_progress_ = 0;
  BlockState block_{};
  KernelBody body_ = nullptr;
  const void* closure_ = nullptr;
  unsigned count_ = 0;       // threads in the block
  unsigned live_ = 0;        // not exited
  unsigned at_barrier_ = 0;  // waiting at a barrier
  bool abandoned_ = false;
  uint64_t switches_ = 0;
};

// A check that a layer above runs when a block has run to its end (no finding stopped it), before its
// shared memory goes: e.g. an mbarrier left holding bytes that no phase announced. Registered once.
using BlockEndCheck = void (*)(const BlockState& block);
void add_block_end_check(BlockEndCheck check);

// The simulated thread calling a device function; aborts with a message in host code.
SimThread& calling_thread(const char* function);

}  // namespace sim
