#include "judge/speed_estimates.hpp"

#include "launch_work.hpp"
#include "slow_reasons.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {

SpeedEstimate speed_estimate(const PuzzleSpec& puzzle, const Params& params, const perf::GpuSpec& gpu,
                             const CaseCounts& mine, const std::optional<CaseCounts>& solution) {
  const perf::Estimate e = perf::estimate(gpu, perf::launch_work(mine.sim), mine.resources);
  SpeedEstimate s{
      .gpu = gpu.name, .ms = e.seconds * 1e3, .at_least = e.lower_bound, .at_most = e.upper_bound};
  if (puzzle.flops) {
    s.tflops = puzzle.flops(params) / e.seconds / 1e12;
  } else if (puzzle.min_bytes && e.seconds > 0) {
    s.pct_of_copy = 100 * puzzle.min_bytes(params) / e.seconds / gpu.dram_bytes_per_s;
  }
  if (const perf::LaunchEstimate* k = e.longest()) {
    s.binding = perf::limit_name(k->binding);
    s.bound = perf::bound_words(k->binding);
    s.kernel = k->kernel;
    s.blocks = k->blocks;
    s.threads_per_block = k->threads_per_block;
    s.busy_sms = k->busy_sms;
    s.sms = gpu.sms;
    s.sectors_per_request = k->sectors_per_request;
    s.sector_use = k->sector_use;
    s.bank_ways = k->bank_ways;
    s.warps_per_sm = k->occupancy.warps_per_sm;
    s.max_warps_per_sm = gpu.max_warps;
    s.occupancy_limit = k->occupancy.limited_by;
    s.registers = k->registers;
    s.registers_measured = k->registers_measured;
    s.dram_bytes = k->traffic.dram_read_bytes + k->traffic.dram_write_bytes;
  }
  if (!solution) return s;
  const perf::Estimate theirs = perf::estimate(gpu, perf::launch_work(solution->sim), solution->resources);
  // The solution's blocks may wait for one another (puzzle 3's long rows): then its estimate runs high and
  // is no yardstick.
  if (theirs.seconds <= 0 || theirs.upper_bound) return s;
  s.solution_ms = theirs.seconds * 1e3;
  if (s.ms >= kSlowRatio * *s.solution_ms) s.slow_reason = perf::slow_reason(e, theirs, gpu);
  return s;
}

const perf::GpuSpec& estimate_gpu(const std::string& key) {
  if (key.empty()) return perf::default_gpu();
  if (const perf::GpuSpec* gpu = perf::find_gpu(key)) return *gpu;
  std::string known;
  for (const perf::GpuSpec& gpu : perf::gpu_table()) known += (known.empty() ? "" : ", ") + gpu.key;
  throw UsageError("--gpu " + key + ": the estimate knows " + known);
}

}  // namespace puzzle::cli
