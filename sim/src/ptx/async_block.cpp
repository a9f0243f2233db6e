#include "ptx/async_block.hpp"

namespace sim::ptx {

AsyncBlock& async_block() {
  return async_block(*current_thread()->block);
}

AsyncBlock& async_block(const BlockState& block) {
  static thread_local AsyncBlock state;
  // A block's epochs start at a multiple of 2^32 that no other block shares (execution/scheduler.cpp).
  const uint64_t id = block.epoch >> 32;
  if (state.block_id != id) {
    state.block_id = id;
    state.barriers.clear();
    state.threads.assign(block.block_dim.x * block.block_dim.y * block.block_dim.z, ThreadAsync{});
  }
  return state;
}

ThreadAsync& thread_async(const ThreadState& thread) {
  return async_block(*thread.block).threads[thread.linear];
}

Mbarrier* find_mbarrier(AsyncBlock& block, uint32_t address) {
  for (Mbarrier& barrier : block.barriers)
    if (barrier.address == address) return &barrier;
  return nullptr;
}

}  // namespace sim::ptx
