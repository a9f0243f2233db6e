// Shared memory per block: the host thread's arena, poisoned at block start; __shared__ storage.
#include "memory/shared.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/work_counters.hpp"
#include "memory/access.hpp"
#include "memory/banks.hpp"
#include "memory/checker.hpp"
#include "memory/global_requests.hpp"
#include "memory/heap.hpp"
#include "memory/shared_layout.hpp"
#include "sim/shared.h"

namespace sim::memory {
namespace {

constexpr size_t kArenaBytes = SharedLayout::kArenaBytes;
constexpr size_t kWords = kArenaBytes / 4;
constexpr int kPoison = 0xFF;  // what uninitialized shared memory reads as: NaN for floats

template <class T>
T* reserve(size_t count) {
  void* p = reserve_address_space(count * sizeof(T));
  if (!p) {
    std::fprintf(stderr, "sim: cannot reserve address space for shared memory\n");
    std::abort();
  }
  return static_cast<T*>(p);
}

void make_ready(SharedBlock& block, const SharedVariable& variable) {
  std::memset(block.arena + variable.offset, kPoison, variable.size);
  std::memset(block.byte_state + variable.offset, kAddressable, variable.size);
  block.dirty_bytes = std::max(block.dirty_bytes, variable.offset + variable.size);
}

// Variables placed since this block last looked, by this block or by blocks on other host threads.
void make_new_variables_ready(SharedBlock& block) {
  const size_t count = shared_layout.variable_count();
  for (; block.variables_ready < count; ++block.variables_ready)
    make_ready(block, shared_layout.variable(block.variables_ready));
}

SharedBlock& this_host_thread_block() {
  thread_local std::unique_ptr<SharedBlock> block;
  if (!block) block = std::make_unique<SharedBlock>();
  return *block;
}

SharedBlock& running_block() {
  const ThreadState* thread = current_thread();
  if (!thread || !thread->block || !thread->block->shared) {
    std::fprintf(stderr, "sim: __shared__ memory used outside a kernel\n");
    std::abort();
  }
  return *static_cast<SharedBlock*>(thread->block->shared);
}

}  // namespace

SharedBlock::SharedBlock()
    : arena(reserve<std::byte>(kArenaBytes)),
      byte_state(reserve<uint8_t>(kArenaBytes + kStateSlack)),
      words(reserve<WordShadow>(kWords)),
      chunk_tags(reserve<ChunkTag>(kArenaBytes / 16)) {}

SharedBlock::~SharedBlock() {
  munmap(arena, kArenaBytes);
  munmap(byte_state, kArenaBytes + kStateSlack);
  munmap(words, kWords * sizeof(WordShadow));
  munmap(chunk_tags, kArenaBytes / 16 * sizeof(ChunkTag));
}

bool begin_block(BlockState& block, size_t dynamic_bytes, size_t dynamic_limit) {
  if (!shared_layout.enter_block(block, dynamic_bytes, dynamic_limit)) return false;
  SharedBlock& shared = this_host_thread_block();
  // Word shadows need no reset: their epochs belong to earlier blocks.
  std::memset(shared.byte_state, 0, shared.dirty_bytes);
  shared.dirty_bytes = 0;
  shared.variables_ready = 0;
  ++shared.serial;
  shared.first_epoch = block.epoch;
  shared.async_reads.clear();
  shared.unfenced_lo = shared.unfenced_hi = 0;
  shared.first_copy = shared.next_copy;
  shared.block = &block;
  make_ready(shared, shared_layout.dynamic_region());
  make_new_variables_ready(shared);
  block.shared = &shared;
  if (work::counting()) {
    const unsigned threads = block.block_dim.x * block.block_dim.y * block.block_dim.z;
    work::begin_block(threads);
    begin_global_block(threads);
  }
  host_thread_access.shared_lo = reinterpret_cast<uintptr_t>(shared.arena);
  host_thread_access.shared_size = kArenaBytes;
  return true;
}

void end_block(BlockState& block) {
  flush_access_cache();
  end_block_banks();
  if (work::counting()) {
    end_global_block();
    work::end_block(block.block_dim.x * block.block_dim.y * block.block_dim.z);
  }
  host_thread_access.shared_lo = 0;
  host_thread_access.shared_size = 0;
  block.shared = nullptr;
}

size_t static_shared_bytes() {
  return shared_layout.static_bytes();
}

}  // namespace sim::memory

namespace sim {

void* shared_storage(const SharedSite& site, size_t size, size_t align) {
  memory::SharedBlock& block = memory::running_block();
  const size_t index = memory::shared_layout.variable_of(
      site, size, align, reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
  if (index >= block.variables_ready) memory::make_new_variables_ready(block);
  return block.arena + memory::shared_layout.variable(index).offset;
}

void* dynamic_shared_storage() {
  memory::SharedBlock& block = memory::running_block();
  return block.arena + memory::shared_layout.dynamic_region().offset;
}

}  // namespace sim
