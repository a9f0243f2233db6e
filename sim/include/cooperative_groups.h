// Cooperative groups, the block and tile part that kernels use (CUDA's <cooperative_groups.h>): a block,
// its tiles of 1 to 32 threads, and their barriers, shuffles and votes, built on the simulator's warp
// collectives (so masks, divergence and races are checked as for the intrinsics). Each call passes on the
// caller's line, so that a finding names the learner's code. Grid-wide groups (this_grid, which need a
// cooperative launch), coalesced groups and memcpy_async are not modelled.
#pragma once
#include <source_location>

#include "device_launch_parameters.h"
#include "sim/sync.h"
#include "sim/warp.h"

namespace cooperative_groups {
namespace details {

#define SIM_CG_HERE std::source_location where = std::source_location::current()

inline unsigned block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
inline unsigned block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
// The lanes of the calling thread's warp that exist (a block's last warp may be partial).
inline unsigned warp_lanes() {
  const unsigned left = block_threads() - block_rank() / 32 * 32;
  return left >= 32 ? 0xffffffffu : (1u << left) - 1;
}

}  // namespace details

class thread_block {
 public:
  void sync(SIM_CG_HERE) const { __syncthreads(where); }
  unsigned long long thread_rank() const { return details::block_rank(); }
  unsigned long long size() const { return details::block_threads(); }
  unsigned long long num_threads() const { return details::block_threads(); }
  dim3 group_index() const { return blockIdx; }
  dim3 thread_index() const { return threadIdx; }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() {
  return {};
}

// A tile whose size is known only at run time (tiled_partition(parent, n)): rank, size and sync.
class thread_group {
 public:
  explicit thread_group(unsigned size) : size_(size) {}
  void sync(SIM_CG_HERE) const {
    if (size_ >= details::block_threads())
      __syncthreads(where);
    else
      __syncwarp(mask(), where);
  }
  unsigned long long thread_rank() const { return details::block_rank() % size_; }
  unsigned long long size() const { return size_; }
  unsigned long long num_threads() const { return size_; }

 protected:
  // The tile's lanes within the warp (tiles of more than 32 threads span whole warps).
  unsigned mask() const {
    if (size_ >= 32) return details::warp_lanes();
    const unsigned first = details::block_rank() % 32 / size_ * size_;
    return ((1u << size_) - 1) << first & details::warp_lanes();
  }

 private:
  unsigned size_;
};

// A tile of N threads (N a power of 2, at most 32): the warp's collectives over its lanes.
template <unsigned N, class Parent = void>
class thread_block_tile : public thread_group {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0,
                "a thread_block_tile has 1, 2, 4, 8, 16 or 32 threads");

 public:
  thread_block_tile() : thread_group(N) {}
  template <class P>
  thread_block_tile(const thread_block_tile<N, P>&) : thread_group(N) {}

  static constexpr unsigned long long size() { return N; }
  static constexpr unsigned long long num_threads() { return N; }
  unsigned meta_group_rank() const { return details::block_rank() / N; }
  unsigned meta_group_size() const { return (details::block_threads() + N - 1) / N; }
  void sync(SIM_CG_HERE) const { __syncwarp(mask(), where); }

  template <class T>
  T shfl(T var, int src_rank, SIM_CG_HERE) const {
    return __shfl_sync(mask(), var, src_rank, N, where);
  }
  template <class T>
  T shfl_down(T var, unsigned delta, SIM_CG_HERE) const {
    return __shfl_down_sync(mask(), var, delta, N, where);
  }
  template <class T>
  T shfl_up(T var, unsigned delta, SIM_CG_HERE) const {
    return __shfl_up_sync(mask(), var, delta, N, where);
  }
  template <class T>
  T shfl_xor(T var, unsigned lane_mask, SIM_CG_HERE) const {
    return __shfl_xor_sync(mask(), var, static_cast<int>(lane_mask), N, where);
  }
  int any(int predicate, SIM_CG_HERE) const { return __any_sync(mask(), predicate, where); }
  int all(int predicate, SIM_CG_HERE) const { return __all_sync(mask(), predicate, where); }
  // Bit r for the thread of rank r in the tile.
  unsigned ballot(int predicate, SIM_CG_HERE) const {
    return __ballot_sync(mask(), predicate, where) >> first_lane() & lanes();
  }
  template <class T>
  unsigned match_any(T value, SIM_CG_HERE) const {
    return __match_any_sync(mask(), value, where) >> first_lane() & lanes();
  }

 private:
  static constexpr unsigned lanes() { return N == 32 ? 0xffffffffu : (1u << N) - 1; }
  static unsigned first_lane() { return details::block_rank() % 32 / N * N; }
};

template <unsigned N, class Parent>
thread_block_tile<N, Parent> tiled_partition(const Parent&) {
  return {};
}

inline thread_group tiled_partition(const thread_block&, unsigned size) {
  return thread_group(size);
}
inline thread_group tiled_partition(const thread_group& parent, unsigned size) {
  return thread_group(size < parent.size() ? size : static_cast<unsigned>(parent.size()));
}

template <class Group>
void sync(const Group& group, SIM_CG_HERE) {
  group.sync(where);
}

#undef SIM_CG_HERE

}  // namespace cooperative_groups
