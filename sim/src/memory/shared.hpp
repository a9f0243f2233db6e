// The shared memory of the block a host thread runs: an arena laid out by SharedLayout, poisoned
// at block start, with a shadow per byte (addressable, initialized) and per word (races).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/context.hpp"
#include "memory/races.hpp"

namespace sim::memory {

// kCopyPending: a cp.async issued into the byte has not landed (its thread has not waited for it).
enum ByteState : uint8_t { kAddressable = 1, kInitialized = 2, kCopyPending = 4 };
inline constexpr size_t kStateSlack = 16;  // past the end of byte_state: it is read 8 bytes at a time

struct SharedBlock {
  SharedBlock();
  ~SharedBlock();
  SharedBlock(const SharedBlock&) = delete;
  SharedBlock& operator=(const SharedBlock&) = delete;

  // This block's epoch for race tracking: unique on this host thread, unlike BlockState::epoch
  // values, which blocks that ran here earlier may have reached too.
  uint64_t epoch() const { return (serial << 32) | (block->epoch - first_epoch); }

  std::byte* arena;
  uint8_t* byte_state;
  WordShadow* words;
  size_t dirty_bytes = 0;      // prefix of byte_state that may be non-zero
  size_t variables_ready = 0;  // layout variables made addressable and poisoned in this block
  uint64_t serial = 0;         // blocks begun on this host thread
  uint64_t first_epoch = 0;    // block->epoch at block start
  const BlockState* block = nullptr;
  // Where this host thread reported a race between lanes of one warp ("no __syncwarp()"): if the same
  // place races across warps too, the report is revised to name __syncthreads(), the barrier it needs.
  std::vector<Where> warp_race_sites;
};

}  // namespace sim::memory
