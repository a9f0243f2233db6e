// cooperative_groups::reduce over a tile, with CUDA's operators (sim/include/cooperative_groups/reduce.h).
#pragma once
#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T>
struct plus {
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
  __host__ __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  __host__ __device__ T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  __host__ __device__ T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  __host__ __device__ T operator()(T a, T b) const { return a ^ b; }
};

template <unsigned N, class Parent, class T, class Op>
__device__ T reduce(const thread_block_tile<N, Parent>& tile, T value, Op op) {
  for (unsigned offset = N / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset));
  return value;
}

}  // namespace cooperative_groups
