#include "runtime_api/estimate.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <mutex>
#include <utility>

#include "core/work_counters.hpp"
#include "memory/global_footprint.hpp"
#include "memory/global_requests.hpp"

namespace sim::estimate {
namespace {

// The sample's size: enough blocks that one slow block or the grid's edges do not decide the figure,
// few enough that an estimate costs a fraction of a check (docs/simulator.md, "Speed").
constexpr uint64_t kMaxBlocks = 64;
// Global and shared accesses: no new block once the sample made kLaunchAccesses; a block is stopped at
// kBlockGlobal global or kBlockShared shared accesses (about a second each on one core), its counts then a
// lower bound. A right kernel's block stays below: puzzle 5's one-thread-per-query-row kernels make 17
// million global (test kernel) or 34 million shared accesses (version 1) at n = 2048.
constexpr uint64_t kLaunchAccesses = uint64_t{1} << 20;
constexpr uint64_t kBlockGlobal = uint64_t{24} << 20, kBlockShared = uint64_t{64} << 20;

std::mutex estimate_mutex;
std::vector<harness::LaunchWork> finished_launches;

}  // namespace

void set_on(bool on) {
  work::set_counting(on);
  work::set_block_budget(on ? kBlockGlobal : 0, on ? kBlockShared : 0);
}

bool on() {
  return work::counting();
}

BlockSample::BlockSample(uint64_t blocks) : blocks_(blocks) {
  const uint64_t size = std::min(blocks, kMaxBlocks);
  const int bits = std::bit_width(size - 1);
  for (uint64_t i = 0; order_.size() < size; ++i) {
    // i with its `bits` low bits reversed: 0, 1/2, 1/4, 3/4, ... of the slots, so every prefix is spread.
    uint64_t reversed = 0;
    for (int b = 0; b < bits; ++b) reversed |= (i >> b & 1) << (bits - 1 - b);
    if (reversed < size) order_.push_back(reversed);
  }
}

std::optional<uint64_t> BlockSample::block(uint64_t i) const {
  if (i >= order_.size() || (i > 0 && work::launch_accesses() >= kLaunchAccesses)) return std::nullopt;
  const uint64_t slots = order_.size();
  return (2 * order_[i] + 1) * blocks_ / (2 * slots);  // the middle of its slot
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
  w.shared_requests = counts.shared_requests;
  w.shared_wavefronts = counts.shared_wavefronts;
  w.shared_ideal_wavefronts = counts.shared_ideal_wavefronts;

  w.cut_short = counts.cut_short;
  const memory::GlobalCounts global = memory::take_global_counts();
  w.load_requests = global.load_requests;
  w.store_requests = global.store_requests;
  w.load_sectors = global.load_sectors;
  w.store_sectors = global.store_sectors;
  w.lines = global.lines;
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
