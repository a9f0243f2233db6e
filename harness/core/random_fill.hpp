// A large input drawn on every core: blocks of a fixed size, each from the substream of its index, so the
// values depend on the seed alone (the parent and the child, whatever their core counts, draw the same).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "parallel_for.hpp"
#include "rng.hpp"

namespace puzzle {

inline constexpr int64_t kRandomFillBlock = 1 << 16;

// out[i] = draw(rng of i's block), in order within each block.
template <class T, class Draw>
void random_fill(const Rng& rng, std::span<T> out, Draw draw) {
  parallel_ranges(static_cast<int64_t>(out.size()), kRandomFillBlock, [&](int64_t begin, int64_t end) {
    Rng block = rng.substream(static_cast<uint64_t>(begin / kRandomFillBlock));
    for (int64_t i = begin; i < end; ++i) out[i] = draw(block);
  });
}

template <class T, class Draw>
void random_fill(const Rng& rng, std::vector<T>& out, Draw draw) {
  random_fill(rng, std::span<T>(out), draw);
}

}  // namespace puzzle
