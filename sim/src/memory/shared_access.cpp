// Accesses to the running block's shared memory: bounds, initialization, races.
#include <algorithm>
#include <cstring>

#include "core/context.hpp"
#include "core/work_counters.hpp"
#include "diagnostics/store.hpp"
#include "memory/access.hpp"
#include "memory/async_proxy.hpp"
#include "memory/banks.hpp"
#include "memory/checker.hpp"
#include "memory/describe.hpp"
#include "memory/races.hpp"
#include "memory/shared.hpp"
#include "memory/shared_layout.hpp"

namespace sim::memory {
namespace {

struct SharedPlace {
  BufferName name;
  AddressRange range;
  bool empty_dynamic_region = false;
};

// The variable holding `address`, or the closest one: an out-of-bounds access is named after the
// variable whose red zone it hit.
SharedPlace place_of(const SharedBlock& block, uintptr_t address) {
  const auto base = reinterpret_cast<uintptr_t>(block.arena);
  auto range_of = [&](const SharedVariable& v) {
    return AddressRange{base + v.offset, base + v.offset + v.size};
  };
  auto distance = [&](const SharedVariable& v) {
    const AddressRange r = range_of(v);
    return address < r.lo ? r.lo - address : address >= r.hi ? address - r.hi + 1 : 0;
  };
  const SharedVariable* best = &shared_layout.dynamic_region();
  for (size_t i = 0; i < block.variables_ready; ++i) {
    const SharedVariable& v = shared_layout.variable(i);
    if (distance(v) < distance(*best)) best = &v;
  }
  if (!best->site) return {{"dynamic_shared", "the dynamic shared memory"}, range_of(*best), best->size == 0};
  return {{best->site->name, std::string("__shared__ ") + best->site->name}, range_of(*best)};
}

std::string element_of(const SharedPlace& place, uintptr_t address, size_t bytes) {
  return element_at(place.name.in_index, place.range.lo, address, bytes);
}

// Byte states eight at a time (the state array has slack past its end for this): this runs for
// every shared access, most of which are 4 or 8 bytes.
uint64_t flags_of_first(size_t bytes, uint8_t flag) {
  const uint64_t mask = bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
  return mask & (flag * uint64_t{0x0101010101010101});
}

bool all_bytes(const uint8_t* state, size_t bytes, uint8_t flag) {
  for (size_t i = 0; i < bytes; i += 8) {
    const uint64_t want = flags_of_first(bytes - i, flag);
    uint64_t eight;
    std::memcpy(&eight, state + i, 8);
    if ((eight & want) != want) return false;
  }
  return true;
}

bool any_byte(const uint8_t* state, size_t bytes, uint8_t flag) {
  for (size_t i = 0; i < bytes; i += 8) {
    uint64_t eight;
    std::memcpy(&eight, state + i, 8);
    if (eight & flags_of_first(bytes - i, flag)) return true;
  }
  return false;
}

void set_bytes(uint8_t* state, size_t bytes, uint8_t flag) {
  for (size_t i = 0; i < bytes; i += 8) {
    uint64_t eight;
    std::memcpy(&eight, state + i, 8);
    eight |= flags_of_first(bytes - i, flag);
    std::memcpy(state + i, &eight, 8);
  }
}

std::string coordinates(unsigned linear, const dim3& block_dim) {
  return "(" + std::to_string(linear % block_dim.x) + "," +
         std::to_string(linear / block_dim.x % block_dim.y) + "," +
         std::to_string(linear / (block_dim.x * block_dim.y)) + ")";
}

// Reports are cold and out of line: the checks that call them run on every access.
[[gnu::cold, gnu::noinline]] void report_outside(const SharedBlock& block, uintptr_t address, size_t bytes,
                                                 Access kind, Where where) {
  const char* finding = kind == Access::read ? "shared_oob_read" : "shared_oob_write";
  if (count_repeat(finding, where)) return;
  const SharedPlace place = place_of(block, address);
  std::string message = outside_message(place.name, place.range, address, bytes, kind);
  if (place.empty_dynamic_region)
    message += "; the launch gave no dynamic shared memory (its size is the third <<<...>>> argument)";
  report(Severity::error, finding, where, message);
}

[[gnu::cold, gnu::noinline]] void report_misaligned(const SharedBlock& block, uintptr_t address, size_t bytes,
                                                    Access kind, Where where) {
  if (count_repeat("misaligned_access", where)) return;
  report(Severity::error, "misaligned_access", where,
         misaligned_message(kind, bytes, element_of(place_of(block, address), address, bytes)));
}

[[gnu::cold, gnu::noinline]] void report_uninitialized(const SharedBlock& block, uintptr_t address,
                                                       size_t bytes, Access kind, Where where) {
  if (count_repeat("shared_uninit_read", where)) return;
  report(Severity::warning, "shared_uninit_read", where,
         access_words(kind, bytes) + " at " + element_of(place_of(block, address), address, bytes) +
             ", which no thread of this block has written yet (shared memory starts uninitialized)");
}

// Takes `where` out of `sites`; false if it was not there.
bool take_site(std::vector<Where>& sites, const Where& where) {
  const auto it = std::find_if(sites.begin(), sites.end(), [&](const Where& w) {
    return w.pc == where.pc && w.line == where.line && w.file == where.file;
  });
  if (it == sites.end()) return false;
  sites.erase(it);
  return true;
}

[[gnu::cold, gnu::noinline]] void report_copy_pending(const SharedBlock& block, uintptr_t address,
                                                      size_t bytes, Access kind, Where where) {
  if (count_repeat("async_copy_not_waited", where)) return;
  report(Severity::error, "async_copy_not_waited", where,
         access_words(kind, bytes) + " at " + element_of(place_of(block, address), address, bytes) +
             " while a cp.async into it is still in flight: the thread that issued the copy must wait for it "
             "(cp.async.wait_group / __pipeline_wait_prior) and, if another thread reads it, "
             "__syncthreads() must come between");
}

[[gnu::cold, gnu::noinline]] void report_race(SharedBlock& block, WordAccess earlier, WordAccess now,
                                              uintptr_t address, size_t bytes, Where where) {
  const bool same_warp = earlier.thread() / 32 == now.thread() / 32;
  const bool repeat = count_repeat("shared_race", where);
  // A place whose first race was inside one warp may race across warps too (a block-wide tree reduction
  // with no barrier): then only __syncthreads() fixes it, and the report must say so, not __syncwarp().
  if (repeat && (same_warp || !take_site(block.warp_race_sites, where))) return;
  static constexpr const char* kNow[] = {"reads", "writes", "atomically updates"};
  static constexpr const char* kEarlier[] = {"read", "wrote", "atomically updated"};
  const dim3& dim = block.block->block_dim;
  std::string message =
      "shared-memory race on " + element_of(place_of(block, address), address, bytes) + ": thread " +
      coordinates(now.thread(), dim) + " " + kNow[static_cast<int>(now.kind())] + " it here, thread " +
      coordinates(earlier.thread(), dim) + " " + kEarlier[static_cast<int>(earlier.kind())] +
      " it at {related}, and " +
      (same_warp ? "no __syncwarp() orders them (the lanes of a warp do not run in lockstep)"
                 : "no __syncthreads() separates them");
  if (repeat) {
    revise_finding(
        Severity::error, "shared_race", where, earlier.where(),
        std::move(message) + " (lanes of one warp race here too; __syncwarp() would not be enough)");
  } else {
    if (same_warp) block.warp_race_sites.push_back(where);
    report_related(Severity::error, "shared_race", where, earlier.where(), std::move(message));
  }
}

void check_races(SharedBlock& block, const ThreadState& thread, uintptr_t address, size_t bytes, Access kind,
                 Where where) {
  const size_t offset = address - reinterpret_cast<uintptr_t>(block.arena);
  WordAccess access(block.epoch(), where, block.block->warp_epoch[thread.warp], thread.linear, kind);
  WordAccess earlier, conflict;  // written only on a race
  bool raced = false;
  for (size_t word = offset / 4; word <= (offset + bytes - 1) / 4; ++word) {
    const size_t lo = std::max(offset, word * 4), hi = std::min(offset + bytes, word * 4 + 4);
    access.set_bytes(((1u << (hi - lo)) - 1) << (lo - word * 4));
    if (record_word_access(block.words[word], access, conflict) && !raced) {
      earlier = conflict;
      raced = true;
    }
  }
  if (raced) report_race(block, earlier, access, address, bytes, where);
}

}  // namespace

void check_shared_access(uintptr_t address, size_t bytes, Access kind, bool must_align, const Where& where) {
  const ThreadState* thread = current_thread();
  if (!thread || !thread->block || !thread->block->shared) return;
  SharedBlock& block = *static_cast<SharedBlock*>(thread->block->shared);
  const size_t offset = address - reinterpret_cast<uintptr_t>(block.arena);
  if (must_align && address % bytes != 0) {
    report_misaligned(block, address, bytes, kind, where);
    note_kernel_fault(cudaErrorMisalignedAddress);
    stop_running_block();
  }
  uint8_t* state = block.byte_state + offset;
  if (offset + bytes > SharedLayout::kArenaBytes || !all_bytes(state, bytes, kAddressable))
    return report_outside(block, address, bytes, kind, where);
  // The speed estimate runs a kernel that passed the checks below already: it only counts.
  if (!work::counting()) {
    // A write must also wait for the asynchronous reads of the bytes (wgmma operands, bulk stores).
    if (any_byte(state, bytes, kind == Access::read ? kCopyPending : kCopyPending | kAsyncRead)) {
      if (any_byte(state, bytes, kCopyPending)) report_copy_pending(block, address, bytes, kind, where);
      if (kind != Access::read && any_byte(state, bytes, kAsyncRead))
        report_async_read_overwritten(block, offset, bytes, "a store of this thread", where);
    }
    if (kind != Access::write && !all_bytes(state, bytes, kInitialized))
      report_uninitialized(block, address, bytes, kind, where);
    if (kind != Access::read) {
      set_bytes(state, bytes, kInitialized | kUnfenced);
      note_unfenced(block, offset, bytes);
    }
    check_races(block, *thread, address, bytes, kind, where);
  }
  if (kind != Access::atomic && host_thread_access.counting_banks)
    record_bank_access(*thread, offset, bytes, kind == Access::write, where);
}

std::string shared_element(const SharedBlock& block, size_t offset, size_t bytes) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(block.arena) + offset;
  return element_of(place_of(block, address), address, bytes);
}

void check_copy_issue(uintptr_t address, size_t bytes, const Where& where) {
  const ThreadState* thread = current_thread();
  if (!thread || !thread->block || !thread->block->shared) return;
  SharedBlock& block = *static_cast<SharedBlock*>(thread->block->shared);
  const size_t offset = address - reinterpret_cast<uintptr_t>(block.arena);
  if (offset + bytes > SharedLayout::kArenaBytes ||
      !all_bytes(block.byte_state + offset, bytes, kAddressable))
    return;  // reported when the copy lands
  check_races(block, *thread, address, bytes, Access::write, where);
}

void mark_copy_pending(uintptr_t address, size_t bytes, bool pending) {
  const ThreadState* thread = current_thread();
  if (!thread || !thread->block || !thread->block->shared) return;
  const SharedBlock& block = *static_cast<const SharedBlock*>(thread->block->shared);
  const size_t offset = address - reinterpret_cast<uintptr_t>(block.arena);
  if (offset + bytes > SharedLayout::kArenaBytes) return;
  uint8_t* state = block.byte_state + offset;
  for (size_t i = 0; i < bytes; ++i) state[i] = pending ? state[i] | kCopyPending : state[i] & ~kCopyPending;
}

}  // namespace sim::memory
