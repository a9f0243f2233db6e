// The estimated time of a kernel launch on a GPU of the table, from the simulator's counts: the time
// each limit would take on its own (DRAM bandwidth, L2 bandwidth, the SM's memory pipe of L1 and shared
// memory, instruction issue, the special-function unit, the tensor cores, and latency with the
// parallelism the launch has), the largest of them (the binding limit), and the launch's start.
// docs/simulator.md ("Speed") gives the model, its constants and what it ignores.
#pragma once
#include <array>
#include <map>
#include <string>
#include <vector>

#include "cache_model.hpp"
#include "gpu_table.hpp"
#include "launch_work.hpp"
#include "occupancy.hpp"

namespace puzzle::perf {

enum class Limit { dram, l2, memory_pipe, issue, special, tensor, latency };
inline constexpr size_t kLimits = 7;
const char* limit_name(Limit limit);  // "DRAM bandwidth", "latency", ...

struct LaunchEstimate {
  std::string kernel;
  uint64_t blocks = 0, threads_per_block = 0;
  int registers = 0;
  bool registers_measured = false;  // from nvcc; else the default
  Occupancy occupancy;
  int busy_sms = 0;    // SMs with at least one block
  double seconds = 0;  // this launch, its start included
  std::array<double, kLimits> limit_seconds{};
  Limit binding = Limit::latency;
  MemoryTraffic traffic;
  double sectors_per_request = 0;  // global memory, loads and stores
  double bank_ways = 0;            // shared wavefronts per conflict-free wavefront (1: none)
  bool lower_bound = false;        // a block was stopped at the simulator's budget
};

struct Estimate {
  double seconds = 0;  // all launches of the launcher call
  std::vector<LaunchEstimate> launches;
  bool lower_bound = false;
  const LaunchEstimate* longest() const;  // the launch that takes longest; nullptr without launches
};

// Registers per thread by kernel name (template arguments left out), as nvcc reports them.
using RegisterCounts = std::map<std::string, int>;
inline constexpr int kDefaultRegisters = 32;  // without nvcc: the most that leaves 2048 threads per SM

// `kernel` as the launch wrote it ("ns::attention<64, true>"), as RegisterCounts keys it ("attention").
std::string kernel_base_name(const std::string& kernel);

Estimate estimate(const GpuSpec& gpu, const std::vector<LaunchWork>& launches,
                  const RegisterCounts& registers);

}  // namespace puzzle::perf
