#include "memory/ordering.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "memory/checker.hpp"
#include "memory/heap.hpp"

namespace sim::memory {
namespace {

struct Published {
  std::mutex mutex;
  std::unordered_map<uintptr_t, std::vector<ReleasePoint>> at;  // by the flag's address
  std::atomic<bool> any{false};                                 // `at` is not empty (acquires skip it)
};

Published& published() {
  static Published p;
  return p;
}

uint32_t serial_of(uint64_t epoch) {
  return static_cast<uint32_t>(epoch >> 32);
}

// `a` orders everything `b` orders: a later interval of the same block, or the same point.
bool dominates(const ReleasePoint& a, const ReleasePoint& b) {
  return serial_of(a.epoch) == serial_of(b.epoch) &&
         (a.epoch > b.epoch || (a.epoch == b.epoch && a.thread == b.thread));
}

// Whether an acquired point orders the accesses of thread `thread` in block epoch `epoch`.
bool applies(const AcquiredPoint& acquired, unsigned thread, uint64_t epoch) {
  return acquired.acquired_in < epoch || acquired.acquirer == thread;
}

// `points` without those `point` dominates, then `point`, unless one of them dominates it.
void merge(std::vector<ReleasePoint>& points, const ReleasePoint& point) {
  if (std::any_of(points.begin(), points.end(), [&](const ReleasePoint& p) { return dominates(p, point); }))
    return;
  std::erase_if(points, [&](const ReleasePoint& p) { return dominates(point, p); });
  points.push_back(point);
}

// With published().mutex held.
void release(const ThreadState& self, uintptr_t address) {
  const BlockState& block = *self.block;
  Published& p = published();
  std::vector<ReleasePoint>& points = p.at[address];
  merge(points, {block.epoch, self.linear});
  for (const AcquiredPoint& acquired : block.acquired)
    if (applies(acquired, self.linear, block.epoch)) merge(points, acquired.point);
  p.any.store(true, std::memory_order_seq_cst);
}

// With published().mutex held.
void acquire(const ThreadState& self, uintptr_t address) {
  BlockState& block = *self.block;
  Published& p = published();
  const auto found = p.at.find(address);
  if (found == p.at.end()) return;
  for (const ReleasePoint& point : found->second) {
    if (serial_of(point.epoch) == serial_of(block.epoch)) continue;
    const AcquiredPoint now{point, self.linear, block.epoch};
    const bool known = std::any_of(block.acquired.begin(), block.acquired.end(), [&](const AcquiredPoint& a) {
      return (dominates(a.point, point)) &&
             (a.acquired_in < now.acquired_in ||
              (a.acquired_in == now.acquired_in && a.acquirer == now.acquirer));
    });
    if (!known) block.acquired.push_back(now);
  }
}

bool releases(const ThreadState& self, bool writes) {
  return writes && self.fenced_in != 0 && serial_of(self.fenced_in) == serial_of(self.block->epoch);
}

std::atomic<uint64_t> next_epoch{uint64_t{1} << 32};

}  // namespace

uint64_t next_block_epoch() {
  return next_epoch.fetch_add(uint64_t{1} << 32, std::memory_order_relaxed);
}

void begin_launch() {
  Published& p = published();
  std::lock_guard lock(p.mutex);
  p.at.clear();
  p.any.store(false, std::memory_order_relaxed);
  launch_epoch_floor.store(next_epoch.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

void on_threadfence() {
  if (ThreadState* self = current_thread()) self->fenced_in = self->block->epoch;
}

namespace {

// The acquire of what a strong access observes, then (a fenced thread's write) its release, under the
// publication lock, returned held; no lock when there is nothing to order: nothing published yet, and no
// release.
std::unique_lock<std::mutex> order(const ThreadState& self, uintptr_t address, bool writes) {
  const bool publishes = releases(self, writes);
  if (!publishes && !published().any.load(std::memory_order_seq_cst)) return {};
  std::unique_lock lock(published().mutex);
  // Acquire first: an atomic update that both observes and publishes hands on what it observed.
  acquire(self, address);
  if (publishes) release(self, address);
  return lock;
}

}  // namespace

void on_strong_access(uintptr_t address, bool writes) {
  if (const ThreadState* self = current_thread()) order(*self, address, writes);
}

OrderedAtomic::OrderedAtomic(const void* address) : address_(reinterpret_cast<uintptr_t>(address)) {
  const ThreadState* self = current_thread();
  if (!self || !device_heap.contains(address_)) return;
  self_ = self;
  lock_ = order(*self, address_, true);
}

OrderedAtomic::~OrderedAtomic() {
  if (lock_.owns_lock() || !self_ || !published().any.load(std::memory_order_seq_cst)) return;
  // A release came while this atomic ran without the lock: what it observed may be that release's.
  std::lock_guard lock(published().mutex);
  acquire(*self_, address_);
}

bool acquired_before(uint32_t serial, uint16_t interval, unsigned thread, const ThreadState& now) {
  const BlockState& block = *now.block;
  for (const AcquiredPoint& acquired : block.acquired) {
    if (!applies(acquired, now.linear, block.epoch) || serial_of(acquired.point.epoch) != serial) continue;
    const auto released_in = static_cast<uint16_t>(acquired.point.epoch);
    const auto later_by = static_cast<uint16_t>(released_in - interval);
    if ((later_by != 0 && later_by < 0x8000) || (later_by == 0 && acquired.point.thread == thread))
      return true;
  }
  return false;
}

}  // namespace sim::memory
