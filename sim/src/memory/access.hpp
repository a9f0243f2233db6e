// The hot path of every instrumented load and store: classify the address, and for global memory
// count it against a per-host-thread cache of spans known to be safe to touch. Everything else
// (the first access to a span, errors, shared memory) goes to out-of-line checks.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/context.hpp"
#include "core/work_counters.hpp"
#include "diagnostics/report.hpp"
#include "memory/access_kind.hpp"
#include "memory/global_races.hpp"
#include "memory/heap.hpp"

namespace sim::memory {

// A guard-free span of an allocation's buffer, and the traffic into it not yet added to the allocation.
struct CachedSpan {
  AddressRange span;
  Allocation* allocation = nullptr;
  uint64_t bytes_read = 0, bytes_written = 0;
};

struct HostThreadAccess {
  // Enough for the buffers of an attention kernel. Emptied by end_block: allocations only change
  // (free, guards) while no block runs.
  std::array<CachedSpan, 8> spans{};
  size_t next_victim = 0;
  // The shared memory of the block running on this host thread (empty outside blocks).
  uintptr_t shared_lo = 0;
  size_t shared_size = 0;
  // The return address of the learner's last instrumented load or store on this host thread: where a
  // kernel that never finishes is stuck, for the timeout report (execution/host_threads.hpp).
  uintptr_t last_access_pc = 0;
  // Off while cp.async copies land: they are not instructions of a warp, so no bank wavefronts.
  bool counting_banks = true;
  // Off while a bulk copy (TMA) moves its rows: the copy engine's traffic, counted per copy, not per lane.
  bool counting_global = true;
  // This host thread's fiber stacks (execution/stack_pool.hpp): the simulated threads' local variables,
  // which a kernel may reach through pointers; empty until its first block.
  uintptr_t stacks_lo = 0;
  size_t stacks_size = 0;
};

extern constinit thread_local HostThreadAccess host_thread_access [[gnu::tls_model("initial-exec")]];

// Checks an access to the device arena that missed the cache, and caches its span if it is valid.
[[gnu::noinline]] void check_device_access(uintptr_t address, size_t bytes, Access kind, bool must_align,
                                           bool strong, const Where& where);
// Bounds, initialization and race checks of the current block's shared memory.
[[gnu::noinline]] void check_shared_access(uintptr_t address, size_t bytes, Access kind, bool must_align,
                                           const Where& where);

// The speed estimate's view of a global access by a kernel (memory/global_requests.hpp).
[[gnu::noinline]] void count_global_access(uintptr_t address, size_t bytes, Access kind, uintptr_t pc);

// Marks or clears shared bytes as the destination of a cp.async not yet landed (reading them is an error).
void mark_copy_pending(uintptr_t address, size_t bytes, bool pending);
// A cp.async issued into shared bytes writes them from then on: checked for races as a write of the
// issuing thread now (another warp still reading them in this barrier interval is a race).
void check_copy_issue(uintptr_t address, size_t bytes, const Where& where);

// An access to host memory (not the device arena, shared memory or a fiber stack). Once
// refuse_host_memory_in_kernels was called: in a kernel, unless the bytes are a __device__ variable or
// the launch's parameters, a GPU stops the kernel there (reported, and the block stopped); in host code,
// a writable __device__ variable is a finding (a GPU's host code reaches only a host copy of it).
[[gnu::noinline]] void check_outside_device(uintptr_t address, size_t bytes, Access kind, const Where& where);
// The running launch's parameters: its closure of kernel arguments, which every simulated thread reads.
void set_launch_parameters(const void* closure, size_t bytes);
// From now on, in this process: a graded run, whose kernels may reach no host memory. Not before: in a
// program of the simulator's own (its tests) its runtime may run instrumented library code on a fiber.
void refuse_host_memory_in_kernels();

// The running thread's access to its own watched registers (core/context.hpp, WatchedRange): handed to
// whoever watches them (the wgmma accumulators' owner sets it).
using WatchedAccessHandler = void (*)(uintptr_t address, size_t bytes, Access kind, const Where& where);
extern WatchedAccessHandler watched_access_handler;
[[gnu::noinline]] void check_watched_access(uintptr_t address, size_t bytes, Access kind, const Where& where);

// `must_align`: the compiler promised natural alignment (bytes is 1, 2, 4, 8 or 16), which the GPU
// requires; byte ranges and accesses the compiler knows to be unaligned pass false. `strong`: a volatile
// access (atomics say so by their kind), which races with no other strong access to global memory.
[[gnu::always_inline]] inline void on_access(const void* pointer, size_t bytes, Access kind, bool must_align,
                                             Where where, bool strong = false) {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  HostThreadAccess& local = host_thread_access;
  if (device_heap.contains(address)) {
    if (work::counting()) [[unlikely]]
      count_global_access(address, bytes, kind, where.pc);
    if (!must_align || (address & (bytes - 1)) == 0) {
      for (CachedSpan& cached : local.spans) {
        if (cached.span.contains(address, bytes)) {
          if (kind != Access::write) cached.bytes_read += bytes;
          if (kind != Access::read) cached.bytes_written += bytes;
          track_global_access(*cached.allocation, address, bytes, kind, strong, where);
          return;
        }
      }
    }
    check_device_access(address, bytes, kind, must_align, strong, where);
  } else if (address - local.shared_lo < local.shared_size) {
    check_shared_access(address, bytes, kind, must_align, where);
  } else if (address - detail::current_watched.lo < detail::current_watched.size) {
    check_watched_access(address, bytes, kind, where);
  } else if (address - local.stacks_lo >= local.stacks_size) {
    check_outside_device(address, bytes, kind, where);
  }
}

// A volatile load or store (tsan's volatile hooks): checked as an access, and for global memory a
// strong one that may publish or observe a flag (memory/ordering.hpp).
void on_volatile_access(const void* addr, size_t size, Access kind, const Where& where);

// Adds the cached traffic to the allocations and empties the cache (at the end of every block).
void flush_access_cache();

}  // namespace sim::memory
