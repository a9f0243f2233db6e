// The speed estimate's side of a launch (harness::set_estimating): which blocks run, and what they did.
// A grid of thousands of blocks is sampled: blocks spread over it, in an order whose every prefix is
// spread too, until the sample has made enough global and shared accesses; a block that alone makes too many
// (one thread looping over the whole input) is stopped there and the launch marked cut short.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/context.hpp"
#include "sim/harness_api.h"

namespace sim::estimate {

void set_on(bool on);  // while no kernel runs
bool on();

// The blocks an estimating launch runs, out of the grid's.
class BlockSample {
 public:
  explicit BlockSample(dim3 grid);
  uint64_t size() const { return order_.size(); }
  // The linear index of the i-th block to run (i < size()), or nullopt once the blocks run so far have
  // made the launch's share of global accesses (the first block always runs).
  std::optional<uint64_t> block(uint64_t i) const;

 private:
  std::vector<uint64_t> order_;  // the blocks, in the order they run
};

// After an estimating launch: its counts, taken from the counters (which start again from zero).
void finish_launch(const LaunchInfo& launch, size_t static_shared, uint64_t blocks_simulated);
std::vector<harness::LaunchWork> take_work();  // the launches finished since the last call

}  // namespace sim::estimate
