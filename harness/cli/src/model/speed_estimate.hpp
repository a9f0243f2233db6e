// The simulator's estimate of a timed case's speed on a GPU (harness/perf, docs/simulator.md "Estimated
// speed"), beside the fastest solution's estimate of the same case: what `check` prints and the JSON report
// holds.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace puzzle::cli {

struct SpeedEstimate {
  std::string gpu;        // "H100"
  double ms = 0;          // every launch of the launcher call
  bool at_least = false;  // a block was stopped at the simulator's budget: a lower bound
  bool at_most = false;   // blocks wait for one another, which the simulator runs a few at a time: high
  std::string binding;    // the limit that binds: "DRAM bandwidth", "latency: too little parallelism" ...
  std::string bound;      // in two words: "memory-bound", "compute-bound", "latency-bound"
  std::optional<double> pct_of_copy;  // memory-bound puzzles: the minimum bytes' rate / the copy's
  std::optional<double> tflops;       // puzzles that count flops
  std::optional<double> solution_ms;  // the fastest solution's estimate on the same case and GPU
  // The counters an expert looks at first, of the launch that takes longest.
  std::string kernel;
  uint64_t blocks = 0, threads_per_block = 0;
  int busy_sms = 0, sms = 0;
  double sectors_per_request = 0;  // global memory; 4 is a warp's 32 floats
  double sector_use = 0;           // of the bytes of those sectors, the share the lanes asked for
  double bank_ways = 0;            // shared wavefronts per conflict-free one; 0 without shared memory
  int warps_per_sm = 0, max_warps_per_sm = 0;
  std::string occupancy_limit;  // "registers", "shared memory", "threads", "blocks per SM"
  int registers = 0;
  bool registers_measured = false;  // nvcc's count; else assumed
  double dram_bytes = 0;
  std::string slow_reason;  // set when the estimate is 10x the solution's or more: why
};

}  // namespace puzzle::cli
