#include "slow_reasons.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

namespace puzzle::perf {
namespace {

std::string number(double v, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

std::string count(uint64_t n, const char* one, const char* many) {
  return (n == 1 ? std::string("one ") + one : std::to_string(n) + " " + many);
}

// Each reason, or empty where it does not apply; `k` is the kernel's longest launch, `s` the solution's.
std::string parallelism(const LaunchEstimate& k, const LaunchEstimate& s, const GpuSpec& gpu) {
  if (k.busy_sms * 2 > gpu.sms || k.busy_sms >= s.busy_sms) return "";
  std::string text = count(k.blocks, "block", "blocks") + ": " + std::to_string(k.busy_sms) + " of " +
                     std::to_string(gpu.sms) + " SMs busy";
  if (k.threads_per_block < 32) text += ", " + count(k.threads_per_block, "thread", "threads") + " per block";
  return text;
}

std::string occupancy_reason(const LaunchEstimate& k, const LaunchEstimate& s) {
  if (k.occupancy.warps_per_sm > 8 || k.occupancy.warps_per_sm >= s.occupancy.warps_per_sm) return "";
  return "only " + std::to_string(k.occupancy.warps_per_sm) + " warps per SM (limited by " +
         k.occupancy.limited_by + ") to hide each load's latency";
}

// Neighbouring threads that read addresses far apart: a warp's access touches many sectors and uses little
// of each (the L1 then serves every lane apart).
std::string coalescing(const LaunchEstimate& k, const LaunchEstimate& s) {
  if (k.sector_use > 0.5 || k.sectors_per_request < 2 * std::max(s.sectors_per_request, 1.0)) return "";
  return "uncoalesced: a warp's access touches " + number(k.sectors_per_request, 1) +
         " sectors of 32 bytes and uses " + number(100 * k.sector_use, 0) +
         "% of their bytes (the solution's: " + number(s.sectors_per_request, 1) + " sectors, " +
         number(100 * s.sector_use, 0) + "%): the threads of a warp read addresses far apart";
}

std::string bank_conflicts(const LaunchEstimate& k) {
  if (k.bank_ways < 3) return "";
  return number(k.bank_ways, 1) + "-way shared-memory bank conflicts";
}

std::string dram_bytes(const LaunchEstimate& k, const LaunchEstimate& s) {
  const double mine = k.traffic.dram_read_bytes + k.traffic.dram_write_bytes;
  const double theirs = s.traffic.dram_read_bytes + s.traffic.dram_write_bytes;
  if (theirs <= 0 || mine < 1.5 * theirs) return "";
  return "moves " + number(mine / theirs, 1) + "x the solution's bytes to and from DRAM";
}

std::string work_reason(const LaunchEstimate& k, const LaunchEstimate& s) {
  const double mine = k.limit_seconds[static_cast<size_t>(k.binding)];
  const double theirs = s.limit_seconds[static_cast<size_t>(k.binding)];
  if (theirs <= 0 || mine < 2 * theirs) return "";
  return number(mine / theirs, 1) + "x the solution's time in " + limit_name(k.binding);
}

}  // namespace

std::string bound_words(Limit binding) {
  switch (binding) {
    case Limit::dram:
    case Limit::l2:
      return "memory-bound";
    case Limit::memory_pipe:
      return "bound by the L1 and shared-memory pipe";
    case Limit::issue:
    case Limit::special:
    case Limit::tensor:
      return "compute-bound";
    case Limit::latency:
      return "latency-bound";
  }
  return "";
}

std::string slow_reason(const Estimate& kernel, const Estimate& solution, const GpuSpec& gpu) {
  const LaunchEstimate* k = kernel.longest();
  const LaunchEstimate* s = solution.longest();
  if (!k) return "";
  if (!s) return std::string("bound by ") + limit_name(k->binding);
  std::vector<std::string> order;
  switch (k->binding) {
    case Limit::latency:
      order = {parallelism(*k, *s, gpu), occupancy_reason(*k, *s), coalescing(*k, *s), dram_bytes(*k, *s)};
      break;
    case Limit::memory_pipe:
    case Limit::l2:
      order = {coalescing(*k, *s), bank_conflicts(*k), parallelism(*k, *s, gpu), dram_bytes(*k, *s)};
      break;
    case Limit::dram:
      order = {dram_bytes(*k, *s), parallelism(*k, *s, gpu), coalescing(*k, *s)};
      break;
    default:
      order = {parallelism(*k, *s, gpu), work_reason(*k, *s), bank_conflicts(*k), occupancy_reason(*k, *s)};
      break;
  }
  std::string reasons;
  int given = 0;
  for (const std::string& reason : order) {
    if (reason.empty() || given == 2) continue;
    reasons += (given++ ? "; " : "") + reason;
  }
  if (reasons.empty()) reasons = work_reason(*k, *s);
  return reasons.empty() ? std::string("bound by ") + limit_name(k->binding) : reasons;
}

}  // namespace puzzle::perf
