// Cooperative groups' block and tiles: ranks, votes, shuffles and cg::reduce within each tile, in a
// block whose last warp is partial.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <vector>

#include "memory_test_support.hpp"

namespace cg = cooperative_groups;

namespace {

struct TileView {
  unsigned rank, meta_rank, meta_size, ballot;
  int any_odd, all_even;
  int down, sum, max;
};

// Tiles of 8: each thread reports what its tile says about its ranks.
void tile_of_8(TileView* out) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  const int rank = static_cast<int>(tile.thread_rank());
  TileView v;
  v.rank = tile.thread_rank();
  v.meta_rank = tile.meta_group_rank();
  v.meta_size = tile.meta_group_size();
  v.ballot = tile.ballot(rank % 2 == 1);
  v.any_odd = tile.any(rank % 2 == 1);
  v.all_even = tile.all(rank % 2 == 0);
  v.down = tile.shfl_down(rank, 1);
  v.sum = cg::reduce(tile, rank, cg::plus<int>());
  v.max = cg::reduce(tile, static_cast<int>(block.thread_rank()), cg::greater<int>());
  tile.sync();
  out[block.thread_rank()] = v;
}

}  // namespace

TEST_CASE("tiles of a block rank, vote, shuffle and reduce within themselves") {
  constexpr unsigned kThreads = 48;  // a warp and a half: six tiles of 8
  TileView* device = nullptr;
  cudaMalloc(&device, kThreads * sizeof(TileView));
  const auto report = memory_test::checked(
      [&] { ::sim::launch(::sim::LaunchConfig(1, kThreads), "tile_of_8", [=] { tile_of_8(device); }); });
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
  std::vector<TileView> got(kThreads);
  cudaMemcpy(got.data(), device, kThreads * sizeof(TileView), cudaMemcpyDeviceToHost);
  cudaFree(device);
  for (unsigned t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CHECK(got[t].rank == t % 8);
    CHECK(got[t].meta_rank == t / 8);
    CHECK(got[t].meta_size == 6);
    CHECK(got[t].ballot == 0xAAu);  // ranks 1, 3, 5, 7
    CHECK(got[t].any_odd == 1);
    CHECK(got[t].all_even == 0);
    CHECK(got[t].down == static_cast<int>(t % 8 == 7 ? 7 : t % 8 + 1));  // the last rank keeps its own
    CHECK(got[t].sum == 28);
    CHECK(got[t].max == static_cast<int>(t / 8 * 8 + 7));
  }
}
