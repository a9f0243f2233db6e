// The estimated time of a kernel launch on a GPU of the table, from the simulator's counts: the time
// each limit would take on its own (DRAM bandwidth, L2 bandwidth, the SM's memory pipe of L1 and shared
// memory, instruction issue, the special-function unit, the tensor cores, and latency with the
// parallelism the launch has), the largest of them (the binding limit), and the launch's start.
// docs/simulator.md ("Estimated speed") gives the model, its constants and what it ignores.
#pragma once
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cache_model.hpp"
#include "gpu_table.hpp"
#include "launch_work.hpp"
#include "model_constants.hpp"
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
  bool local_memory = false;        // nvcc keeps arrays in local memory, where indexes load and store
  Occupancy occupancy;
  int busy_sms = 0;    // SMs with at least one block
  double seconds = 0;  // this launch, its start included
  std::array<double, kLimits> limit_seconds{};
  Limit binding = Limit::latency;
  MemoryTraffic traffic;
  double sectors_per_request = 0;  // global memory, loads and stores
  double sector_use = 0;           // of the bytes of those sectors, the share the lanes asked for
  double bank_ways = 0;            // shared wavefronts per conflict-free wavefront (1: none)
  bool lower_bound = false;        // a block was stopped at the simulator's budget
  bool upper_bound = false;        // blocks wait for one another: the simulator's counts run high
};

struct Estimate {
  double seconds = 0;  // all launches of the launcher call
  std::vector<LaunchEstimate> launches;
  bool lower_bound = false;
  bool upper_bound = false;
  const LaunchEstimate* longest() const;  // the launch that takes longest; nullptr without launches
};

// What nvcc's register allocator reports of a kernel: registers per thread, and the stack frame where it
// keeps the arrays it cannot hold in registers (each index of them is then a load or store of local
// memory; a frame of spilled registers counts as none).
struct KernelResource {
  int registers = 0;
  int stack_bytes = 0;
};
// By kernel, under kernel_spelling ("attention<64,true>") and under kernel_base_name ("attention": the most
// of its instantiations). A launch whose kernel is not here (a template parameter's name, say) gets the
// most of every kernel of its file.
using KernelResources = std::map<std::string, KernelResource>;
inline constexpr int kDefaultRegisters = 32;  // without nvcc: the most that leaves 2048 threads per SM
void to_json(nlohmann::json& j, const KernelResource& r);
void from_json(const nlohmann::json& j, KernelResource& r);

// A kernel as a launch writes it ("ns::attention<64, true>") or as nvcc names it: without spaces and
// namespaces ("attention<64,true>"), and without its template arguments too ("attention").
std::string kernel_spelling(const std::string& kernel);
std::string kernel_base_name(const std::string& kernel);

Estimate estimate(const GpuSpec& gpu, const std::vector<LaunchWork>& launches,
                  const KernelResources& registers, const ModelConstants& constants = {});

}  // namespace puzzle::perf
