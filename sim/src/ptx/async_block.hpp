// What Hopper's asynchronous instructions keep per block: its mbarriers, and per thread the wgmma and
// bulk-store groups it has not waited for. One per host thread, emptied when a new block starts on it.
#pragma once
#include <cstdint>
#include <source_location>
#include <string>
#include <vector>

#include "core/context.hpp"

namespace sim::ptx {

struct Mbarrier {
  uint32_t address;         // its shared address
  uint32_t expected = 0;    // arrivals per phase (mbarrier.init's count)
  uint32_t pending = 0;     // arrivals the current phase still waits for
  int64_t transaction = 0;  // bytes it still waits for (negative: more came than were announced)
  uint64_t completed = 0;   // phases completed: the current phase's parity is completed % 2
  std::source_location init_site;
};

// A wgmma.mma_async whose results a thread has not waited for yet: written to its registers by the
// wgmma.wait_group that covers `group`.
struct PendingWgmma {
  unsigned group;  // the thread's commit count when it was issued
  std::vector<float*> registers;
  std::vector<float> results;
  uint64_t read;  // the asynchronous read of its operands (memory/async_proxy.hpp)
  std::source_location where;
};

struct PendingBulkStore {
  unsigned group;
  uint64_t read;
};

struct ThreadAsync {
  unsigned wgmma_committed = 0;
  std::vector<PendingWgmma> wgmma;  // in issue order
  unsigned bulk_committed = 0;
  std::vector<PendingBulkStore> bulk_stores;
  uint32_t waiting_parity = 0;  // while it waits in mbarrier.try_wait.parity
};

struct AsyncBlock {
  uint64_t block_id = 0;
  std::vector<Mbarrier> barriers;
  std::vector<ThreadAsync> threads;  // by linear thread index
};

// A block's state on this host thread (reset when a block other than the last one asks); the running
// block's without an argument.
AsyncBlock& async_block(const BlockState& block);
AsyncBlock& async_block();
ThreadAsync& thread_async(const ThreadState& thread);
// The barrier at `address`, or nullptr if no mbarrier.init of the block made one there.
Mbarrier* find_mbarrier(AsyncBlock& block, uint32_t address);

}  // namespace sim::ptx
