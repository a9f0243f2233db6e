#include "time_model.hpp"

#include <algorithm>
#include <cmath>

namespace puzzle::perf {
namespace {

double at_least_one(double v) {
  return std::max(v, 1.0);
}

// nvcc's report of the kernel a launch ran: by the function the simulator saw it run (a PC of its first
// access may lie in a device function it calls), else by the launch's spelling, else the file's most.
KernelResource resource_of(const KernelResources& resources, const LaunchWork& launch) {
  for (const std::string& name : {launch.function, launch.kernel}) {
    if (name.empty()) continue;
    if (const auto it = resources.find(kernel_spelling(name)); it != resources.end()) return it->second;
    if (const auto it = resources.find(kernel_base_name(name)); it != resources.end()) return it->second;
  }
  KernelResource most;
  for (const auto& [name, r] : resources) {
    most.registers = std::max(most.registers, r.registers);
    most.stack_bytes = std::max(most.stack_bytes, r.stack_bytes);
  }
  return most;
}

LaunchEstimate estimate_launch(const GpuSpec& gpu, const LaunchWork& w, const KernelResources& registers,
                               const ModelConstants& k) {
  LaunchEstimate e;
  e.kernel = w.kernel;
  e.blocks = w.blocks();
  e.threads_per_block = w.threads_per_block();
  const KernelResource resource = resource_of(registers, w);
  e.registers_measured = resource.registers > 0;
  e.registers = e.registers_measured ? resource.registers : kDefaultRegisters;
  e.local_memory = resource.stack_bytes > 0;
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
  e.traffic = memory_traffic(gpu, w, e.occupancy, concurrent, k);

  const auto total = [&](Work k) { return w.per_warp_of(k) * scale; };
  const double requests = (w.load_requests + w.store_requests) * scale;
  e.sectors_per_request = requests > 0 ? (w.load_sectors + w.store_sectors) * scale / requests : 0;
  const double sector_bytes = (w.load_sectors + w.store_sectors) * 32;
  e.sector_use = sector_bytes > 0 ? std::min(1.0, (w.load_bytes + w.store_bytes) / sector_bytes) : 0;
  e.upper_bound = w.waits_for_blocks;
  e.bank_ways = w.shared_ideal_wavefronts > 0 ? w.shared_wavefronts / w.shared_ideal_wavefronts : 0;

  const double clock = gpu.clock_hz;
  auto& limit = e.limit_seconds;
  const auto at = [&](Limit l) -> double& { return limit[static_cast<size_t>(l)]; };
  at(Limit::dram) = (e.traffic.dram_read_bytes + e.traffic.dram_write_bytes) / gpu.dram_bytes_per_s;
  at(Limit::l2) = std::max(e.traffic.l2_bytes / gpu.l2_bytes_per_s,
                           e.traffic.l2_bytes * share / (k.l2_bytes_per_sm_clock * clock));
  // Arrays nvcc keeps in local memory: each index a load or store through L1, a warp's in one line. An
  // index that reached global or shared memory was not one of them.
  const auto local_of = [&](auto of) {
    return e.local_memory ? std::max(0.0, of(Work::indexes) - of(Work::global) - of(Work::shared)) : 0;
  };
  const double local = local_of(total);
  at(Limit::memory_pipe) = ((w.lines + w.shared_wavefronts) * scale + local) * share / clock;
  const double instructions = total(Work::ops) * k.instructions_per_operator +
                              total(Work::special) * k.special_issue + requests + w.shared_requests * scale +
                              total(Work::collective) + total(Work::barrier) + total(Work::tensor) + local;
  const double schedulers = std::min(4.0, resident * warps_per_block);
  at(Limit::issue) = instructions * share / schedulers / clock;
  at(Limit::special) = total(Work::special) * 32 / gpu.special_lanes * share / clock;
  const double mma_sync_flops = total(Work::tensor_flops) - total(Work::wgmma_flops);
  at(Limit::tensor) = (mma_sync_flops / k.mma_sync_share + total(Work::wgmma_flops) / k.wgmma_share) * share /
                      gpu.tensor_flops_clock / clock;

  // Local memory is cached like global memory: an access hits L1 as far as the stack frames of the
  // threads the SM holds fit in the L1 beside shared memory, the rest wait for L2.
  const double frames = resident * static_cast<double>(e.threads_per_block) * resource.stack_bytes;
  const double local_hits = frames > 0 ? std::min(1.0, l1_bytes(gpu, e.occupancy) / frames) : 1;
  const double local_chain =
      (local_hits * k.l1_latency + (1 - local_hits) * k.l2_latency) / k.loads_in_flight;

  // Latency: each round of blocks an SM holds takes its longest thread's dependent chain (an average
  // block's, rounds after rounds; at least the longest block's, which may run alone at the end); and DRAM
  // can go no faster than the bytes the resident warps keep in flight allow (Little's law).
  const auto chain_cycles = [&](auto chain) {
    return chain(Work::ops) * k.instructions_per_operator * k.operator_chain +
           chain(Work::special) * k.special_chain +
           chain(Work::global) * e.traffic.load_latency_cycles / k.loads_in_flight +
           chain(Work::shared) * k.shared_chain + chain(Work::collective) * k.collective_chain +
           chain(Work::barrier) * k.barrier_chain + chain(Work::tensor) * k.tensor_chain +
           local_of(chain) * local_chain;
  };
  const double longest_chain = chain_cycles([&](Work k) { return w.longest_of(k); });
  const double block_chain = chain_cycles([&](Work k) { return w.block_longest_of(k); });
  const double rounds = std::ceil(on_busiest / e.occupancy.blocks_per_sm);
  const double in_flight =
      resident * warps_per_block * k.loads_in_flight * 32 * std::max(e.sectors_per_request, 1.0);
  const double dram_bytes_busiest = (e.traffic.dram_read_bytes + e.traffic.dram_write_bytes) * share;
  const double little = dram_bytes_busiest / (in_flight / (k.dram_latency / clock));
  const double rounds_cycles = std::max(rounds * block_chain, longest_chain) + rounds * k.block_cycles;
  at(Limit::latency) = std::max(rounds_cycles / clock, little);

  const auto binding = std::max_element(limit.begin(), limit.end());
  e.binding = static_cast<Limit>(binding - limit.begin());
  // The limits overlap, but not perfectly: their p-norm, the binding one plus a little of the others.
  double sum = 0;
  for (const double t : limit) sum += std::pow(t / *binding, k.overlap);
  e.seconds = *binding > 0 ? *binding * std::pow(sum, 1 / k.overlap) : 0;
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

std::string kernel_spelling(const std::string& kernel) {
  std::string name = kernel;
  for (const std::string anonymous = "(anonymous namespace)::"; name.find(anonymous) != std::string::npos;)
    name.erase(name.find(anonymous), anonymous.size());
  // The name ends at its parameter list and starts after the return type nvcc's names have ("void
  // f<1>(int)"): both at the top level of the template brackets.
  int depth = 0;
  size_t start = 0, end = name.size();
  for (size_t i = 0; i < name.size() && end == name.size(); ++i) {
    depth += name[i] == '<' ? 1 : name[i] == '>' ? -1 : 0;
    if (depth == 0 && name[i] == ' ' && i + 1 < name.size() && name[i + 1] != '<') start = i + 1;
    if (depth == 0 && name[i] == '(') end = i;
  }
  name = name.substr(start, end - start);
  std::erase(name, ' ');
  const size_t colons = name.rfind("::", name.find('<'));
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

std::string kernel_base_name(const std::string& kernel) {
  const std::string name = kernel_spelling(kernel);
  return name.substr(0, name.find('<'));
}

void to_json(nlohmann::json& j, const KernelResource& r) {
  j = {{"registers", r.registers}, {"stack_bytes", r.stack_bytes}};
}

void from_json(const nlohmann::json& j, KernelResource& r) {
  r.registers = j.value("registers", 0);
  r.stack_bytes = j.value("stack_bytes", 0);
}

const LaunchEstimate* Estimate::longest() const {
  const auto it = std::max_element(
      launches.begin(), launches.end(),
      [](const LaunchEstimate& a, const LaunchEstimate& b) { return a.seconds < b.seconds; });
  return it == launches.end() ? nullptr : &*it;
}

Estimate estimate(const GpuSpec& gpu, const std::vector<LaunchWork>& launches,
                  const KernelResources& registers, const ModelConstants& k) {
  Estimate e;
  for (const LaunchWork& w : launches) {
    LaunchEstimate launch = estimate_launch(gpu, w, registers, k);
    launch.seconds += e.launches.empty() ? k.first_launch_seconds : k.next_launch_seconds;
    e.seconds += launch.seconds;
    e.lower_bound = e.lower_bound || launch.lower_bound;
    e.upper_bound = e.upper_bound || launch.upper_bound;
    e.launches.push_back(std::move(launch));
  }
  return e;
}

}  // namespace puzzle::perf
