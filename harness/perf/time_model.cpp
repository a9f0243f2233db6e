#include "time_model.hpp"

#include <algorithm>
#include <cmath>

namespace puzzle::perf {
namespace {

// Constants of the model (docs/simulator.md, "Speed"), in SM clocks unless said otherwise.
constexpr double kFirstLaunchSeconds = 3.0e-6;    // a timed call's start, measured (docs/measurements/01)
constexpr double kNextLaunchSeconds = 1.5e-6;     // each further launch of the same call
constexpr double kInstructionsPerOperator = 0.6;  // SASS instructions per source operator counted
constexpr double kSpecialIssue = 2;               // an exp is an ex2 and a multiply
constexpr double kMmaSyncShare = 0.65;            // of the tensor peak that mma.sync reaches
constexpr double kL2BytesPerSmClock = 64;         // what one SM can take from L2
constexpr double kLoadsInFlight = 4;              // independent loads a thread has outstanding
// A thread's dependent chain: cycles per unit of each kind of work (loads use the cache model).
constexpr double kOperatorChain = 2, kSpecialChain = 10, kSharedChain = 15, kCollectiveChain = 30,
                 kBarrierChain = 40, kTensorChain = 16;

double at_least_one(double v) {
  return std::max(v, 1.0);
}

LaunchEstimate estimate_launch(const GpuSpec& gpu, const LaunchWork& w, const RegisterCounts& registers) {
  LaunchEstimate e;
  e.kernel = w.kernel;
  e.blocks = w.blocks();
  e.threads_per_block = w.threads_per_block();
  const auto known = registers.find(kernel_base_name(w.kernel));
  e.registers_measured = known != registers.end();
  e.registers = e.registers_measured ? known->second : kDefaultRegisters;
  e.occupancy = occupancy(gpu, e.threads_per_block, w.shared_bytes, e.registers);
  e.lower_bound = w.cut_short;

  const double blocks = static_cast<double>(e.blocks), scale = w.scale();
  e.busy_sms = static_cast<int>(std::min<double>(gpu.sms, blocks));
  const double on_busiest = std::ceil(blocks / gpu.sms);   // blocks of the busiest SM
  const double share = on_busiest / at_least_one(blocks);  // of the grid's work it does
  const double resident = std::min<double>(on_busiest, e.occupancy.blocks_per_sm);
  const double concurrent =
      std::min<double>(blocks, static_cast<double>(gpu.sms) * e.occupancy.blocks_per_sm);
  const double warps_per_block = std::ceil(e.threads_per_block / 32.0);
  e.traffic = memory_traffic(gpu, w, e.occupancy, concurrent);

  const auto total = [&](Work k) { return w.per_warp_of(k) * scale; };
  const double requests = (w.load_requests + w.store_requests) * scale;
  e.sectors_per_request = requests > 0 ? (w.load_sectors + w.store_sectors) * scale / requests : 0;
  e.bank_ways = w.shared_ideal_wavefronts > 0 ? w.shared_wavefronts / w.shared_ideal_wavefronts : 0;

  const double clock = gpu.clock_hz;
  auto& limit = e.limit_seconds;
  const auto at = [&](Limit l) -> double& { return limit[static_cast<size_t>(l)]; };
  at(Limit::dram) = (e.traffic.dram_read_bytes + e.traffic.dram_write_bytes) / gpu.dram_bytes_per_s;
  at(Limit::l2) = std::max(e.traffic.l2_bytes / gpu.l2_bytes_per_s,
                           e.traffic.l2_bytes * share / (kL2BytesPerSmClock * clock));
  at(Limit::memory_pipe) = (w.lines + w.shared_wavefronts) * scale * share / clock;
  const double instructions = total(Work::ops) * kInstructionsPerOperator +
                              total(Work::special) * kSpecialIssue + requests + w.shared_requests * scale +
                              total(Work::collective) + total(Work::barrier) + total(Work::tensor);
  const double schedulers = std::min(4.0, resident * warps_per_block);
  at(Limit::issue) = instructions * share / schedulers / clock;
  at(Limit::special) = total(Work::special) * 32 / gpu.special_lanes * share / clock;
  at(Limit::tensor) = total(Work::tensor_flops) * share / (gpu.tensor_flops_clock * kMmaSyncShare) / clock;

  // Latency: each round of blocks an SM holds takes its longest thread's dependent chain; and DRAM can
  // go no faster than the bytes the resident warps keep in flight allow (Little's law).
  const auto chain = [&](Work k) { return w.longest_of(k); };
  const double chain_cycles =
      chain(Work::ops) * kInstructionsPerOperator * kOperatorChain + chain(Work::special) * kSpecialChain +
      chain(Work::global) * e.traffic.load_latency_cycles / kLoadsInFlight +
      chain(Work::shared) * kSharedChain + chain(Work::collective) * kCollectiveChain +
      chain(Work::barrier) * kBarrierChain + chain(Work::tensor) * kTensorChain;
  const double rounds = std::ceil(on_busiest / e.occupancy.blocks_per_sm);
  const double in_flight =
      resident * warps_per_block * kLoadsInFlight * 32 * std::max(e.sectors_per_request, 1.0);
  const double dram_bytes_busiest = (e.traffic.dram_read_bytes + e.traffic.dram_write_bytes) * share;
  const double little = dram_bytes_busiest / (in_flight / (900 / clock));
  at(Limit::latency) = std::max(rounds * chain_cycles / clock, little);

  const auto binding = std::max_element(limit.begin(), limit.end());
  e.binding = static_cast<Limit>(binding - limit.begin());
  e.seconds = *binding;
  return e;
}

}  // namespace

const char* limit_name(Limit limit) {
  switch (limit) {
    case Limit::dram:
      return "DRAM bandwidth";
    case Limit::l2:
      return "L2 bandwidth";
    case Limit::memory_pipe:
      return "the L1 and shared-memory pipe";
    case Limit::issue:
      return "instruction issue";
    case Limit::special:
      return "special functions (exp, log ...)";
    case Limit::tensor:
      return "tensor cores";
    case Limit::latency:
      return "latency: too little parallelism";
  }
  return "";
}

std::string kernel_base_name(const std::string& kernel) {
  std::string name = kernel.substr(0, kernel.find('<'));
  if (const size_t colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return name;
}

const LaunchEstimate* Estimate::longest() const {
  const auto it = std::max_element(
      launches.begin(), launches.end(),
      [](const LaunchEstimate& a, const LaunchEstimate& b) { return a.seconds < b.seconds; });
  return it == launches.end() ? nullptr : &*it;
}

Estimate estimate(const GpuSpec& gpu, const std::vector<LaunchWork>& launches,
                  const RegisterCounts& registers) {
  Estimate e;
  for (const LaunchWork& w : launches) {
    LaunchEstimate launch = estimate_launch(gpu, w, registers);
    launch.seconds += e.launches.empty() ? kFirstLaunchSeconds : kNextLaunchSeconds;
    e.seconds += launch.seconds;
    e.lower_bound = e.lower_bound || launch.lower_bound;
    e.launches.push_back(std::move(launch));
  }
  return e;
}

}  // namespace puzzle::perf
