// State shared by the scheduler (threads, barriers, collectives) and the memory checker.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <vector>

#include "device_launch_parameters.h"
#include "vector_types.h"

namespace sim {

struct LaunchInfo {
  const char* kernel = "";  // the kernel expression as written at the launch
  dim3 grid, block;
  size_t dynamic_shared = 0;
  std::source_location where;
};

struct BlockState;

// A cp.async copy issued but not yet landed (sim/include/cuda_pipeline_primitives.h).
struct PendingCopy {
  void* dst;
  const void* src;
  unsigned bytes, zeros;  // zeros: the last `zeros` of `bytes` are written as 0, not read
  unsigned batch;         // the commit that closes it: ThreadState::committed_batches at issue
  std::source_location where;
};

// Bytes of a simulated thread's registers (on its fiber's stack) that an asynchronous instruction still
// owns: the memory checker hands the thread's own accesses to them to the layer that owns them (the
// accumulators of a wgmma not yet waited for, ptx/wgmma_registers.cpp). Empty: size 0.
struct WatchedRange {
  uintptr_t lo = 0;
  size_t size = 0;
};

// A point of a block's run that a release published (memory/ordering.hpp): the block's accesses in
// barrier intervals before `epoch`, and those of thread `thread` in `epoch` itself, happen before it.
struct ReleasePoint {
  uint64_t epoch;  // a BlockState::epoch
  unsigned thread;
};

// A release point of another block that a thread of this one acquired: it orders that thread's later
// accesses, and every thread's after the block's next barrier (block epochs above `acquired_in`).
struct AcquiredPoint {
  ReleasePoint point;
  unsigned acquirer;
  uint64_t acquired_in;
};

struct ThreadState {
  uint3 thread_idx;     // what threadIdx reads
  unsigned linear = 0;  // x + y*blockDim.x + z*blockDim.x*blockDim.y
  unsigned warp = 0, lane = 0;
  BlockState* block = nullptr;
  std::vector<PendingCopy> pending_copies;  // in issue order
  unsigned committed_batches = 0;
  WatchedRange watched;
  uint64_t fenced_in = 0;  // the block epoch of this thread's last __threadfence(), 0 if none
};

// What runs a block (execution/block_runner.hpp) as the layers below it see it: the memory checker
// ends a block through it at an access a GPU would stop the kernel at.
class BlockControl {
 public:
  // Ends the block from `self`, one of its threads, without returning: no thread of it runs again.
  [[noreturn]] virtual void abandon_block(ThreadState& self) = 0;
  // Lets the block's other threads run up to their next yield or wait, then continues `self` (the
  // speed estimate keeps the warps in step at every global access: memory/global_requests.hpp).
  virtual void yield_thread(ThreadState& self) = 0;

 protected:
  ~BlockControl() = default;
};

struct BlockState {
  uint3 block_idx;
  dim3 block_dim, grid_dim;
  const LaunchInfo* launch = nullptr;
  // Process-unique at block start, +1 at every __syncthreads release: two accesses by different
  // threads in the same epoch are unordered (a race) unless a warp collective orders them.
  uint64_t epoch = 0;
  std::array<uint32_t, 32> warp_epoch{};  // +1 per completed collective of warp w (w < 32)
  void* shared = nullptr;                 // the memory checker's per-block shared-memory state
  BlockControl* control = nullptr;        // what runs the block
  std::vector<AcquiredPoint> acquired;    // other blocks' release points its threads acquired
};

namespace detail {
// initial-exec: the memory checker reads this on every instrumented access, so no __tls_get_addr.
extern constinit thread_local ThreadState* current_state [[gnu::tls_model("initial-exec")]];
// The running thread's WatchedRange, beside it so that the check of every access needs no pointer chase.
extern constinit thread_local WatchedRange current_watched [[gnu::tls_model("initial-exec")]];
}  // namespace detail

// The simulated thread running on this host thread, or nullptr in host code. Inline: threadIdx and every
// checked access ask for it (perf: 4% of a 1024-thread softmax's simulation as a call of its own).
inline ThreadState* current_thread() noexcept {
  return detail::current_state;
}
inline void set_current_thread(ThreadState* t) noexcept {
  detail::current_state = t;
  sim_running_thread_idx = t ? t->thread_idx : uint3{};
  detail::current_watched = t ? t->watched : WatchedRange{};
}
inline void set_watched_range(ThreadState& t, WatchedRange range) noexcept {
  t.watched = range;
  if (detail::current_state == &t) detail::current_watched = range;
}

// Ends the running block without returning, as a GPU ends a kernel at a misaligned access (the
// host might even fault on it: aligned vector loads). Only inside a kernel.
[[noreturn]] void stop_running_block();

}  // namespace sim
