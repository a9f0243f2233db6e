// cg::reduce over a tile and the operators CUDA's <cooperative_groups/reduce.h> defines: every thread of
// the tile gets the combination of all the tile's values (a butterfly of shuffles).
#pragma once
#include "cooperative_groups.h"

namespace cooperative_groups {

template <class T>
struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {  // the smaller: a min-reduction
  T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {  // the larger: a max-reduction
  T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};

template <unsigned N, class Parent, class T, class Op>
T reduce(const thread_block_tile<N, Parent>& tile, T value, Op op,
         std::source_location where = std::source_location::current()) {
  for (unsigned offset = N / 2; offset > 0; offset /= 2)
    value = op(value, tile.shfl_xor(value, offset, where));
  return value;
}

}  // namespace cooperative_groups
