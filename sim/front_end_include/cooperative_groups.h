// CUDA's cooperative groups as the simulator has them (sim/include/cooperative_groups.h): the thread block,
// its tiles of 1 to 32 threads (warp collectives over the tile's lanes) and dynamic tiles. Device code.
#pragma once

namespace cooperative_groups {

class thread_block {
 public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ dim3 group_index() const { return blockIdx; }
  __device__ dim3 thread_index() const { return threadIdx; }
  __device__ dim3 group_dim() const { return blockDim; }
  __device__ dim3 dim_threads() const { return blockDim; }
};

__device__ inline thread_block this_thread_block() {
  return {};
}

class thread_group {
 public:
  __device__ explicit thread_group(unsigned size) : size_(size) {}
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const { return size_; }
  __device__ unsigned long long num_threads() const { return size_; }

 private:
  unsigned size_;
};

template <unsigned N, class Parent = void>
class thread_block_tile : public thread_group {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0,
                "a thread_block_tile has 1, 2, 4, 8, 16 or 32 threads");

 public:
  __device__ thread_block_tile() : thread_group(N) {}
  template <class P>
  __device__ thread_block_tile(const thread_block_tile<N, P>&) : thread_group(N) {}

  __host__ __device__ static constexpr unsigned long long size() { return N; }
  __host__ __device__ static constexpr unsigned long long num_threads() { return N; }
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  __device__ void sync() const;
  template <class T>
  __device__ T shfl(T var, int src_rank) const {
    return __shfl_sync(0xffffffffu, var, src_rank, N);
  }
  template <class T>
  __device__ T shfl_down(T var, unsigned delta) const {
    return __shfl_down_sync(0xffffffffu, var, delta, N);
  }
  template <class T>
  __device__ T shfl_up(T var, unsigned delta) const {
    return __shfl_up_sync(0xffffffffu, var, delta, N);
  }
  template <class T>
  __device__ T shfl_xor(T var, unsigned lane_mask) const {
    return __shfl_xor_sync(0xffffffffu, var, static_cast<int>(lane_mask), N);
  }
  __device__ int any(int predicate) const { return __any_sync(0xffffffffu, predicate); }
  __device__ int all(int predicate) const { return __all_sync(0xffffffffu, predicate); }
  __device__ unsigned ballot(int predicate) const { return __ballot_sync(0xffffffffu, predicate); }
  template <class T>
  __device__ unsigned match_any(T value) const {
    return __match_any_sync(0xffffffffu, value);
  }
};

template <unsigned N, class Parent>
__device__ thread_block_tile<N, Parent> tiled_partition(const Parent&) {
  return {};
}
__device__ thread_group tiled_partition(const thread_block& parent, unsigned size);
__device__ thread_group tiled_partition(const thread_group& parent, unsigned size);

template <class Group>
__device__ void sync(const Group& group) {
  group.sync();
}

}  // namespace cooperative_groups
