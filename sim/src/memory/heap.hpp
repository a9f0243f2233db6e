// The device heap: one reserved arena, so "is this a device address" is one range compare.
// Allocations are separated by red zones at least as large as themselves, and addresses are never
// reused: an index error of up to one buffer length, or a use after free, is always attributable.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace sim::memory {

// Address space that costs nothing until touched and reads as zeros; nullptr if none is left.
void* reserve_address_space(size_t bytes) noexcept;

struct AddressRange {
  uintptr_t lo = 0, hi = 0;
  bool contains(uintptr_t address, size_t bytes) const { return address >= lo && address + bytes <= hi; }
  bool overlaps(uintptr_t address, size_t bytes) const { return address < hi && address + bytes > lo; }
  size_t size() const { return hi - lo; }
};

struct GlobalShadowWord;  // memory/global_races.hpp

struct Allocation {
  AddressRange extent;  // the allocation and its red zones: every address here is attributed to it
  AddressRange data;    // what cudaMalloc returned
  // What kernels may touch: `data` without the guards at its ends. Indices in findings count from
  // buffer.lo, so a write into the trailing guard reads as "y[n]".
  AddressRange buffer;
  std::vector<AddressRange> inner_guards;  // guards strictly inside `buffer` (rare)
  std::string label;                       // empty: named after the cudaMalloc call
  const char* file = nullptr;              // the cudaMalloc call
  int line = 0;
  const char* freed_file = nullptr;  // the cudaFree call
  int freed_line = 0;
  uint64_t launcher = 0;  // the launcher that allocated it as scratch, 0 if none
  // The harness's output buffers (harness::mark_output), and whether a scratch
  // buffer's bytes came from the host: host data must not reach an output, even through scratch.
  enum class Role : uint8_t { scratch, output } role = Role::scratch;
  std::atomic<bool> holds_host_data{false};  // a copy from the host landed in it
  std::atomic<bool> freed{false};
  std::atomic<uint64_t> bytes_read{0}, bytes_written{0};  // by kernels
  GlobalShadowWord* race_shadow = nullptr;                // per word of `data`; null if none could be had
  // A case's input (harness::mark_input): kernels only read it, a write failing the case as inputs
  // modified, so its reads are not recorded for races (which leaves its shadow, 4 bytes a byte, untouched).
  bool harness_input = false;
};

class DeviceHeap {
 public:
  static constexpr size_t kAlignment = 256;
  static constexpr size_t kMinRedZone = 64 << 10;

  bool contains(uintptr_t address) const noexcept {
    return address - lo_.load(std::memory_order_relaxed) < size_.load(std::memory_order_relaxed);
  }
  // The allocation whose extent holds `address` (lock-free), or nullptr.
  Allocation* find(uintptr_t address) const noexcept;
  // The allocation whose buffer lies closest to `address` (lock-free), or nullptr if there is none.
  Allocation* nearest(uintptr_t address) const noexcept;

  // nullptr when the device memory or the arena is exhausted.
  Allocation* allocate(size_t bytes, const char* file, int line);
  void release(Allocation& allocation, const char* file, int line);

  size_t live_bytes() const;
  // The part of the arena allocations have used so far, red zones included.
  AddressRange used() const;
  // Every allocation ever made, oldest first; call while no kernel runs.
  std::vector<Allocation*> all() const;

  // Scratch: what the launcher holds between begin_scratch and end_scratch: its own allocations plus those
  // earlier calls made and have not freed (a workspace kept from call to call), now and at the peak. The
  // peak is taken where the memory is in use: at each allocation, each kernel launch (note_launch) and the
  // launcher's return, so that a buffer freed before a smaller one is allocated does not count. The
  // allocated peak counts this call's own allocations only: a workspace sized by an earlier, larger case
  // must not fail the scratch budget of a smaller one.
  void begin_scratch();
  void note_launch();
  void end_scratch();
  uint64_t scratch_live_bytes() const;
  uint64_t scratch_peak_bytes() const;
  uint64_t scratch_allocated_peak_bytes() const;

  // Whether new allocations get a race shadow (4 bytes of shadow a byte). A run that only counts, the
  // speed estimate's, needs none: it samples a few blocks of grids whose shadows would span gigabytes.
  void set_race_tracking(bool on);

 private:
  bool reserve_arena();  // with mutex_ held

  std::atomic<uintptr_t> lo_{0};
  std::atomic<size_t> size_{0};
  std::atomic<Allocation**> table_{nullptr};  // sorted by address, since addresses only grow
  std::atomic<size_t> count_{0};
  mutable std::mutex mutex_;  // allocate / release / accounting
  uintptr_t next_ = 0;        // first unused arena address
  size_t live_bytes_ = 0;
  uint64_t launcher_ = 0, launchers_started_ = 0;
  uint64_t scratch_held_ = 0;  // launchers' allocations not freed yet, whichever launcher made them
  uint64_t scratch_peak_ = 0;
  uint64_t scratch_allocated_live_ = 0, scratch_allocated_peak_ = 0;  // this call's own allocations
  bool track_races_ = true;
};

extern constinit DeviceHeap device_heap;

// "1024 GiB", "3 MiB", "1000 bytes": a size in the largest unit that divides it.
std::string size_words(size_t bytes);

// The last cudaMalloc that failed, kept for a crash on the null pointer it left behind: the crash
// handler names it when the faulting address lies within that many bytes of 0.
void note_failed_allocation(size_t bytes, const char* file, int line);
// "the cudaMalloc of 1024 GiB at k.cu:12 failed (out of memory) and left its pointer null", or nullptr.
// Async-signal-safe: the words were made when the allocation failed.
const char* failed_allocation_under(uintptr_t address) noexcept;

}  // namespace sim::memory
