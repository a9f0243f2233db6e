// One kernel launch as the simulator counted it during an estimate (the "work" of a case's sim report,
// sim::harness::LaunchWork), read in the parent.
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace puzzle::perf {

// The kinds of work, in the simulator's order (sim/src/core/work_counters.hpp).
enum class Work : size_t {
  ops,
  special,
  global,
  shared,
  collective,
  barrier,
  tensor,
  tensor_flops,
  indexes,
  wgmma_flops
};
inline constexpr size_t kWorkKinds = 10;

struct LaunchWork {
  std::string kernel;    // as written at the launch, e.g. "attention_kernel<64, true>" or "kernel"
  std::string function;  // the function it ran, as addr2line names it (the parent adds it), or empty
  std::array<uint64_t, 3> grid{}, block{};
  uint64_t shared_bytes = 0;  // static + dynamic, per block
  uint64_t blocks_simulated = 0;
  bool cut_short = false;
  std::array<double, kWorkKinds> per_warp{}, longest_thread{};
  std::array<double, kWorkKinds> block_longest{};  // summed over the blocks simulated (0: not counted)
  double load_requests = 0, store_requests = 0, load_sectors = 0, store_sectors = 0, lines = 0;
  double load_bytes = 0, store_bytes = 0;  // asked for by the lanes
  bool waits_for_blocks = false;           // blocks poll for one another: the counts may be high
  std::vector<double> load_reuse;          // by std::bit_width of the reuse distance in 32-byte sectors
  double first_load_sectors = 0, first_store_sectors = 0;
  double footprint_load_bytes = 0, footprint_store_bytes = 0;  // already of the whole grid
  double shared_requests = 0, shared_wavefronts = 0, shared_ideal_wavefronts = 0;

  uint64_t blocks() const { return grid[0] * grid[1] * grid[2]; }
  uint64_t threads_per_block() const { return block[0] * block[1] * block[2]; }
  // Blocks in the grid per block simulated: what the sample's counts are multiplied by.
  double scale() const { return blocks_simulated ? static_cast<double>(blocks()) / blocks_simulated : 0; }
  double per_warp_of(Work w) const { return per_warp[static_cast<size_t>(w)]; }
  double longest_of(Work w) const { return longest_thread[static_cast<size_t>(w)]; }
  // What the longest thread of an average block did (the longest of all where not counted).
  double block_longest_of(Work w) const {
    const double sum = block_longest[static_cast<size_t>(w)];
    return sum > 0 && blocks_simulated ? sum / blocks_simulated : longest_of(w);
  }
};

// The launches of a case's sim report (its "work" array; empty without one).
std::vector<LaunchWork> launch_work(const nlohmann::json& sim_report);

}  // namespace puzzle::perf
