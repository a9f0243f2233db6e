// Version 5's tiles (5_128_query_tiles.cu): 128 queries at d = 64, FlashAttention-3's tile there, where
// dK and dV take 32 + 32 accumulator registers and S^T, dP^T have room for 64 + 64; at d = 128 dK and dV
// take 64 + 64 and the tiles stay at 64 queries (wgmma.cuh's QueryTiles64).
#pragma once

namespace {

struct QueryTiles128AtD64 {
  static constexpr int queries(int d) { return d == 64 ? 128 : 64; }
};

}  // namespace
