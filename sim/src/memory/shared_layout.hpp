// Where each __shared__ variable of the current launch lives. Every block of a launch gets the same
// layout, as on a GPU; a static variable gets its place the first time any thread of any block
// reaches its declaration. In a host thread's arena, red zones separate the variables:
//   [red zone][dynamic region][red zone][first static][red zone][second static]...
#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <source_location>

#include "core/context.hpp"
#include "diagnostics/report.hpp"
#include "sim/shared.h"

namespace sim::memory {

struct SharedVariable {
  const SharedSite* site = nullptr;  // nullptr: the dynamic region (extern __shared__)
  size_t offset = 0;                 // in the arena
  size_t size = 0;
};

class SharedLayout {
 public:
  static constexpr size_t kArenaBytes = size_t{4} << 20;  // room for 227 KiB and the red zones

  // At every block start. A block of another launch starts an empty layout. Returns false, after
  // reporting, when the known static plus the dynamic shared memory exceed the kernel's limit.
  bool enter_block(const BlockState& block, size_t dynamic_bytes, size_t dynamic_limit);

  // The index of the site's variable, placed on its first use in this launch (`pc`: who asked).
  size_t variable_of(const SharedSite& site, size_t size, size_t align, uintptr_t pc);

  size_t variable_count() const { return count_.load(std::memory_order_acquire); }
  const SharedVariable& variable(size_t index) const { return variables_[index]; }
  const SharedVariable& dynamic_region() const { return dynamic_; }
  size_t static_bytes() const;

 private:
  static constexpr size_t kMaxVariables = 256;
  static constexpr size_t kMaxSites = 4096;

  struct LaunchKey {
    const char* kernel = "";
    std::source_location where;
    size_t dynamic_bytes = 0, dynamic_limit = 0;
    bool operator==(const LaunchKey& other) const;
  };

  void start_launch(const LaunchKey& key, uint64_t blocks);  // with mutex_ held
  bool fits_or_report(Where where);                          // with mutex_ held

  mutable std::mutex mutex_;
  LaunchKey key_;
  uint64_t blocks_in_launch_ = 0, blocks_begun_ = 0;
  size_t static_bytes_ = 0;  // as CUDA counts it: the variables, aligned, without red zones
  size_t next_offset_ = 0;   // first free byte of the arena
  SharedVariable dynamic_;
  std::array<SharedVariable, kMaxVariables> variables_{};
  std::atomic<size_t> count_{0};
  std::array<std::atomic<size_t>, kMaxSites>
      variable_of_site_{};     // by SharedSite::slot: index + 1, 0 if none
  std::atomic<int> sites_{0};  // slots handed out
};

extern constinit SharedLayout shared_layout;

}  // namespace sim::memory
