// The shared memory of the block a host thread runs: an arena laid out by SharedLayout, poisoned
// at block start, with a shadow per byte (addressable, initialized) and per word (races).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "memory/races.hpp"

namespace sim::memory {

// kCopyPending: a cp.async issued into the byte has not landed (its thread has not waited for it).
// kAsyncRead: an asynchronous read of it (a wgmma operand, a bulk store's source) has not completed.
// kUnfenced: a thread stored to it and no fence.proxy.async has ordered that store before the async proxy
// (wgmma, bulk copies) reads it (memory/async_proxy.hpp).
enum ByteState : uint8_t {
  kAddressable = 1,
  kInitialized = 2,
  kCopyPending = 4,
  kAsyncRead = 8,
  kUnfenced = 16
};
inline constexpr size_t kStateSlack = 16;  // past the end of byte_state: it is read 8 bytes at a time

// How a bulk tensor copy wrote a 16-byte chunk of shared memory: which copy, the box row and the 16-byte
// column of the box it holds (before the swizzle), and the swizzle (CUtensorMapSwizzle). A wgmma
// descriptor that reads the chunks of a row out of order disagrees with how the tile was written.
struct ChunkTag {
  uint32_t copy = 0;  // 0 or older than the block's first copy: not written by a bulk copy of this block
  uint16_t row = 0;
  uint8_t column = 0;
  uint8_t swizzle = 0;
};

// An asynchronous read in flight over shared memory (its bytes are kAsyncRead until it ends).
struct AsyncRead {
  uint64_t id;
  std::vector<std::pair<uint32_t, uint32_t>> spans;  // [offset, offset + bytes)
  std::string reader;                                // "the wgmma.mma_async of warp group 1 (k.cu:80)"
};

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
  // The async proxy (memory/async_proxy.cpp): reads in flight, the span of bytes stored since the last
  // fence.proxy.async, and how bulk copies wrote each 16-byte chunk.
  std::vector<AsyncRead> async_reads;
  size_t unfenced_lo = 0, unfenced_hi = 0;
  ChunkTag* chunk_tags;
  uint32_t next_copy = 1, first_copy = 1;  // bulk copy serials: all of this host thread's, this block's first
};

}  // namespace sim::memory
