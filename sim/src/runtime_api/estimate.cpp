#include "runtime_api/estimate.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <utility>

#include "core/work_counters.hpp"
#include "diagnostics/symbolize.hpp"
#include "memory/global_footprint.hpp"
#include "memory/global_requests.hpp"
#include "memory/heap.hpp"

namespace sim::estimate {
namespace {

// The sample's size: enough blocks that one slow block or the grid's edges do not decide the figure,
// few enough that an estimate costs a fraction of a check (docs/simulator.md, "Estimated speed").
constexpr uint64_t kMaxBlocks = 64;
// Global and shared accesses: no new block once the sample made kLaunchAccesses and has kMinBlocks blocks
// (a causal grid's blocks differ several-fold: two say little of the grid), or made kMostAccesses. Puzzle
// 10's fast version's check waited 22 s after its cases for the estimate at 2^24, 15 s at 2^22 (the
// calibration still 165 of 183 within 2x), 9 s at 2^20 (164, and puzzle 9's ladder out of order). A block
// is stopped at kBlockGlobal global or kBlockShared shared accesses (about a second each on one core), its
// counts then a lower bound. A right kernel's block stays below: puzzle 5's one-thread-per-query-row
// kernels make 17 million global (test kernel) or 34 million shared accesses (version 1) at n = 2048.
constexpr uint64_t kMinBlocks = 8;
constexpr uint64_t kLaunchAccesses = uint64_t{1} << 18, kMostAccesses = uint64_t{1} << 22;
constexpr uint64_t kBlockGlobal = uint64_t{24} << 20, kBlockShared = uint64_t{96} << 20;

std::mutex estimate_mutex;
std::vector<harness::LaunchWork> finished_launches;

}  // namespace

void set_on(bool on) {
  work::set_counting(on);
  work::set_block_budget(on ? kBlockGlobal : 0, on ? kBlockShared : 0);
  memory::device_heap.set_race_tracking(!on);  // the cases' run looks for races; this one only counts
}

bool on() {
  return work::counting();
}

BlockSample::BlockSample(dim3 grid) {
  // Blocks along a low-discrepancy sequence of the grid (the R-sequence, golden ratio's generalisation to
  // three dimensions): every prefix of the order is spread over each dimension of the grid on its own, as
  // over the whole, so a few blocks already cover the rows of a causal grid, whose blocks differ in work
  // along one dimension, and no power-of-two dimension lines the sample up on one column of tiles.
  const uint64_t dims[3] = {grid.x, grid.y, grid.z};
  const uint64_t blocks = dims[0] * dims[1] * dims[2];
  constexpr double kRoot = 1.2207440846057596;  // of x^4 = x + 1
  constexpr double kStep[3] = {1 / kRoot, 1 / (kRoot * kRoot), 1 / (kRoot * kRoot * kRoot)};
  const uint64_t size = std::min(blocks, kMaxBlocks);
  std::vector<bool> taken(blocks < (uint64_t{1} << 24) ? blocks : 0);
  for (uint64_t k = 0; order_.size() < size && k < 16 * size; ++k) {
    uint64_t block = 0;
    for (int d = 2; d >= 0; --d) {
      const double place = std::fmod(0.5 + static_cast<double>(k) * kStep[d], 1.0);
      block = block * dims[d] +
              std::min(dims[d] - 1, static_cast<uint64_t>(place * static_cast<double>(dims[d])));
    }
    if (!taken.empty() && taken[block]) continue;
    if (!taken.empty()) taken[block] = true;
    order_.push_back(block);
  }
  for (uint64_t block = 0; order_.size() < size; ++block)  // a small grid the sequence did not cover
    if (taken.empty() || !taken[block]) order_.push_back(block);
}

std::optional<uint64_t> BlockSample::block(uint64_t i) const {
  if (i >= order_.size()) return std::nullopt;
  const uint64_t made = work::launch_accesses();
  if (i > 0 && (made >= kMostAccesses || (made >= kLaunchAccesses && i >= kMinBlocks))) return std::nullopt;
  return order_[i];
}

void finish_launch(const LaunchInfo& launch, size_t static_shared, uint64_t blocks_simulated) {
  harness::LaunchWork w;
  w.kernel = launch.kernel;
  w.grid[0] = launch.grid.x, w.grid[1] = launch.grid.y, w.grid[2] = launch.grid.z;
  w.block[0] = launch.block.x, w.block[1] = launch.block.y, w.block[2] = launch.block.z;
  w.dynamic_shared = launch.dynamic_shared;
  w.static_shared = static_shared;
  w.blocks_simulated = blocks_simulated;

  const work::LaunchCounts counts = work::take_launch_counts();
  std::copy(counts.per_warp.begin(), counts.per_warp.end(), w.per_warp);
  std::copy(counts.longest_thread.begin(), counts.longest_thread.end(), w.longest_thread);
  std::copy(counts.block_longest.begin(), counts.block_longest.end(), w.block_longest);
  w.shared_requests = counts.shared_requests;
  w.shared_wavefronts = counts.shared_wavefronts;
  w.shared_ideal_wavefronts = counts.shared_ideal_wavefronts;

  w.cut_short = counts.cut_short;
  w.kernel_offset = counts.kernel_pc ? learner_offset(counts.kernel_pc) : 0;
  const memory::GlobalCounts global = memory::take_global_counts();
  w.load_requests = global.load_requests;
  w.store_requests = global.store_requests;
  w.load_sectors = global.load_sectors;
  w.store_sectors = global.store_sectors;
  w.lines = global.lines;
  w.load_bytes = global.load_bytes;
  w.store_bytes = global.store_bytes;
  w.waits_for_blocks = global.spins;
  w.load_reuse.assign(global.load_reuse.begin(), global.load_reuse.end());
  w.first_load_sectors = global.first_load_sectors;
  w.first_store_sectors = global.first_store_sectors;

  const uint64_t blocks = uint64_t{launch.grid.x} * launch.grid.y * launch.grid.z;
  const memory::Footprint footprint =
      memory::take_launch_footprint(blocks_simulated ? static_cast<double>(blocks) / blocks_simulated : 0);
  w.footprint_load_bytes = footprint.load_bytes;
  w.footprint_store_bytes = footprint.store_bytes;
  std::lock_guard lock(estimate_mutex);
  finished_launches.push_back(std::move(w));
}

std::vector<harness::LaunchWork> take_work() {
  std::lock_guard lock(estimate_mutex);
  return std::exchange(finished_launches, {});
}

}  // namespace sim::estimate
