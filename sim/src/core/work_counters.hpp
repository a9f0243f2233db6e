// What the speed estimate counts (runtime_api/estimate.hpp), kind by kind, per simulated thread: every
// layer that sees a kind of work calls count() with it. Off outside an estimate run, where counting()
// is one load of a global and nothing else happens. At a block's end the threads' counts are added up
// per warp (a warp issues an instruction once for all its lanes: the most any lane did) and kept for
// the launch, with the single thread that did the most of each kind (the longest chain of work).
#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/context.hpp"

namespace sim::work {

enum class Kind : uint8_t {
  ops,           // arithmetic operators of the source, in loop bodies and function bodies (translator)
  special,       // exp, log, sin, sqrt, pow ...: the special-function unit's work
  global,        // global-memory accesses of a lane (runtime_api/estimate: warp requests)
  shared,        // shared-memory accesses of a lane, ldmatrix rows included
  collective,    // shuffles, votes, __syncwarp, __reduce_*_sync
  barrier,       // __syncthreads
  tensor,        // mma.sync and wgmma executions of a lane (count_tensor_op)
  tensor_flops,  // their flops in 16-bit-input units: a tf32 product counts twice (half the rate)
  indexes,       // array indexes of the source (translator): local-memory accesses where nvcc spills arrays
  wgmma_flops,   // of tensor_flops, wgmma's: fed from shared memory, nearer the tensor cores' peak
};
inline constexpr size_t kKinds = 10;
using Counts = std::array<uint64_t, kKinds>;

// What the blocks of one launch did, added up (runtime_api/estimate.cpp reads and resets it).
struct LaunchCounts {
  Counts per_warp{};        // summed over warps: the most any lane of the warp did, per kind
  Counts longest_thread{};  // per kind, the most any one thread did
  Counts block_longest{};   // per kind, the most one thread of the block did, summed over blocks
  uint64_t shared_requests = 0, shared_wavefronts = 0, shared_ideal_wavefronts = 0;
  uint64_t blocks = 0;
  uint64_t accesses = 0;    // global and shared, by lanes
  uintptr_t kernel_pc = 0;  // note_kernel_pc's
  bool cut_short = false;   // a block was stopped at the budget: its counts are a lower bound
};

namespace detail {
extern std::atomic<bool> counting_on;
void add(const ThreadState& thread, Kind kind, uint64_t n);
}  // namespace detail

inline bool counting() {
  return detail::counting_on.load(std::memory_order_relaxed);
}
void set_counting(bool on);  // while no kernel runs
// A block that makes more global (or shared) accesses than this is stopped there (0: never).
void set_block_budget(uint64_t global_accesses, uint64_t shared_accesses);

// `n` of `kind` by the calling simulated thread (nothing in host code or when not counting).
inline void count(Kind kind, uint64_t n = 1) {
  if (!counting()) return;
  if (const ThreadState* thread = current_thread()) detail::add(*thread, kind, n);
}

// The hook for tensor-core instructions: one execution by the calling lane, `flops` of the whole
// warp-level (or warpgroup-level) instruction, in 16-bit-input units (tf32: twice its flops).
inline void count_tensor_op(uint64_t flops, bool wgmma = false) {
  count(Kind::tensor);
  count(Kind::tensor_flops, flops);
  if (wgmma) count(Kind::wgmma_flops, flops);
}

// Global accesses that are no lane's instruction (a bulk copy's row of `bytes`): towards the block's
// budget and the sample's accesses, in no thread's work, as many as the 16-byte loads or stores of threads
// that would move those bytes. (Counted as one access a row, a TMA kernel's sample ran all 64 blocks.)
void count_copy_access(size_t bytes);

// A PC inside the running launch's kernel (its first global access's): which function the kernel is, for
// the parent to ask nvcc's report about (a launch may name it by a template parameter).
void note_kernel_pc(uintptr_t pc);

// One warp-wide shared-memory instruction and its wavefronts (memory/banks.cpp).
void count_shared_request(unsigned wavefronts, unsigned ideal_wavefronts);

// Per block, on the host thread that runs it (memory/shared.cpp's begin_block and end_block).
void begin_block(unsigned threads);
void end_block(unsigned threads);

// What the blocks since the last take did; resets it.
LaunchCounts take_launch_counts();
uint64_t launch_accesses();  // by the blocks finished since the last take

}  // namespace sim::work
