#include "ptx/wgmma_results.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "diagnostics/describe.hpp"
#include "diagnostics/store.hpp"
#include "memory/access.hpp"
#include "memory/async_proxy.hpp"
#include "memory/describe.hpp"
#include "ptx/hopper.hpp"

namespace sim::ptx {
namespace {

// `range` widened to cover `registers` (an empty range covers nothing yet).
WatchedRange covering(WatchedRange range, const std::vector<float*>& registers) {
  uintptr_t lo = range.size ? range.lo : ~uintptr_t{0}, hi = range.size ? range.lo + range.size : 0;
  for (const float* reg : registers) {
    lo = std::min(lo, reinterpret_cast<uintptr_t>(reg));
    hi = std::max(hi, reinterpret_cast<uintptr_t>(reg) + sizeof(float));
  }
  return hi > lo ? WatchedRange{lo, hi - lo} : WatchedRange{};
}

void update_watch(ThreadState& thread, const ThreadAsync& self) {
  WatchedRange range;
  for (const PendingWgmma& p : self.wgmma) range = covering(range, p.registers);
  set_watched_range(thread, range);
}

// The running thread touched its watched registers (memory/access.hpp): a pending accumulator?
void on_watched_access(uintptr_t address, size_t bytes, memory::Access kind, const Where& where) {
  ThreadState* thread = current_thread();
  if (!thread) return;
  const ThreadAsync& self = thread_async(*thread);
  for (const PendingWgmma& p : self.wgmma) {
    for (const float* reg : p.registers) {
      const auto r = reinterpret_cast<uintptr_t>(reg);
      if (address >= r + sizeof(float) || r >= address + bytes) continue;
      if (count_repeat("wgmma_accumulator_pending", where)) return;
      report(
          Severity::error, "wgmma_accumulator_pending", where,
          memory::access_words(kind, bytes) +
              " of an accumulator register of the wgmma.mma_async issued at " + describe_site(p.where) +
              ", whose group no wgmma.wait_group has covered yet: a wgmma writes its accumulators "
              "asynchronously, so they may be read or written only after wgmma.wait_group N leaves at most N "
              "newer groups pending (wgmma_wait<0>() before the results are used). A GPU gives whatever the "
              "registers hold at that moment.");
      return;
    }
  }
}

}  // namespace

float accumulator_input(const SimThread& thread, const float* reg, size_t place, float value) {
  const ThreadAsync& self = thread_async(thread);
  for (auto p = self.wgmma.rbegin(); p != self.wgmma.rend(); ++p) {
    if (place < p->registers.size() && p->registers[place] == reg) return p->results[place];
    const auto found = std::find(p->registers.begin(), p->registers.end(), reg);
    if (found != p->registers.end()) return p->results[found - p->registers.begin()];
  }
  return value;
}

void record_pending(SimThread& thread, PendingWgmma pending) {
  memory::watched_access_handler = &on_watched_access;
  ThreadAsync& self = thread_async(thread);
  pending.group = self.wgmma_committed;
  self.wgmma.push_back(std::move(pending));
  // The range so far widened by the new registers: a chain of k-slices adds a wgmma at a time.
  const WatchedRange so_far = self.wgmma.size() == 1 ? WatchedRange{} : thread.watched;
  set_watched_range(thread, covering(so_far, self.wgmma.back().registers));
}

void run_wgmma_commit() {
  ++thread_async(*current_thread()).wgmma_committed;
}

void run_wgmma_wait(const Bound& bound) {
  ThreadState& thread = *current_thread();
  ThreadAsync& self = thread_async(thread);
  const uint64_t allowed = bound.value(bound.instruction().operands[0], "n");
  const uint64_t done_below = self.wgmma_committed > allowed ? self.wgmma_committed - allowed : 0;
  std::erase_if(self.wgmma, [&](const PendingWgmma& p) {
    if (p.group >= done_below) return false;
    for (size_t i = 0; i < p.registers.size(); ++i) std::memcpy(p.registers[i], &p.results[i], sizeof(float));
    memory::end_async_read(p.read);
    return true;
  });
  update_watch(thread, self);
}

}  // namespace sim::ptx
