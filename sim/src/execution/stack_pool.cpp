#include "execution/stack_pool.hpp"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>

#include "memory/access.hpp"

namespace sim {
namespace {

// This host thread's stack region, for the crash handler.
struct GuardedRegion {
  uintptr_t lo = 0, hi = 0;
};
constinit thread_local GuardedRegion this_thread_stacks [[gnu::tls_model("initial-exec")]];

[[noreturn]] void fail(const char* what) {
  std::perror(what);
  std::abort();
}

}  // namespace

StackPool::StackPool() {
  const size_t bytes = kSlotBytes * kMaxStacks;
  void* region = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) fail("[sim] cannot reserve fiber stacks");
  region_ = static_cast<char*>(region);
  const auto lo = reinterpret_cast<uintptr_t>(region_);
  this_thread_stacks = {lo, lo + bytes};
  memory::host_thread_access.stacks_lo = lo;
  memory::host_thread_access.stacks_size = bytes;
}

StackPool::~StackPool() {
  munmap(region_, kSlotBytes * kMaxStacks);
  this_thread_stacks = {};
  memory::host_thread_access.stacks_lo = 0;
  memory::host_thread_access.stacks_size = 0;
}

void* StackPool::stack(unsigned i) {
  for (; usable_ <= i; ++usable_) {
    char* lo = region_ + size_t{usable_} * kSlotBytes + kGuardBytes;
    if (mprotect(lo, kStackBytes, PROT_READ | PROT_WRITE) != 0) fail("[sim] cannot map a fiber stack");
  }
  return region_ + size_t{i} * kSlotBytes + kGuardBytes;
}

bool in_fiber_stack_guard(uintptr_t address) noexcept {
  const GuardedRegion r = this_thread_stacks;
  if (address < r.lo || address >= r.hi) return false;
  return (address - r.lo) % (StackPool::kGuardBytes + StackPool::kStackBytes) < StackPool::kGuardBytes;
}

}  // namespace sim
